import Crypto
import Foundation
import Logging
import LoginCore

/// The rules for a new password (sign-up, reset, change), after NIST SP 800-63B: a minimum
/// length, a maximum size, no composition rules, not a common password, and (when a range API
/// is configured) not a breached one.
///
/// Separate from the login screen's rules, which only shape what may be submitted. A refusal
/// is ``GatehouseError/passwordRejected(_:)`` with the app's copy.
package struct PasswordPolicy: Sendable {
    /// The most bytes a password may have; longer ones are refused before hashing.
    package static let maximumBytes = PasswordShape.maximumBytes

    /// The fewest characters (grapheme clusters).
    package var minimumLength = 8
    /// Where breached passwords are looked up; `nil` checks only the common list.
    package var breached: (any BreachedPasswords)?
    /// The app's copy for each refusal.
    package var messages = MessageCatalogue()

    package init(minimumLength: Int = 8, breached: (any BreachedPasswords)? = nil, messages: MessageCatalogue = MessageCatalogue()) {
        self.minimumLength = minimumLength
        self.breached = breached
        self.messages = messages
    }

    /// Refuses a password that breaks a rule; the range API is asked last, and its failure lets
    /// the password through with a log line (it must never stop people from signing up).
    package func check(_ password: String, logger: Logger) async throws {
        if password.count < minimumLength { throw refusal(.tooShort) }
        if password.utf8.count > Self.maximumBytes { throw refusal(.tooLong) }
        if CommonPasswords.contains(password) { throw refusal(.common) }
        guard let breached else { return }
        let digest = Insecure.SHA1.hash(data: Data(password.utf8)).map { String(format: "%02X", $0) }.joined()
        let prefix = String(digest.prefix(5))
        do {
            if try await breached.suffixes(prefix: prefix).contains(String(digest.dropFirst(5))) { throw refusal(.breached) }
        } catch let error as GatehouseError {
            throw error
        } catch {
            logger.warning("Breached-password check unavailable; the password was allowed", metadata: ["error": "\(type(of: error))"])
        }
    }

    private func refusal(_ reason: PasswordRejection.Reason) -> GatehouseError {
        let text = switch reason {
        case .tooShort: messages.text(.newPasswordTooShort, ["min": "\(minimumLength)"])
        case .tooLong: messages.text(.passwordTooLong, ["max": "\(Self.maximumBytes)"])
        case .common: messages.text(.passwordTooCommon)
        case .breached: messages.text(.passwordBreached)
        }
        return .passwordRejected(PasswordRejection(reason, message: text))
    }
}
