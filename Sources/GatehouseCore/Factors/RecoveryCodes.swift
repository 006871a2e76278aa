import Crypto
import Foundation

/// Recovery codes: the way back in when the authenticator app is lost (issue 37).
///
/// Ten codes of ten characters from an alphabet with no look-alikes (no `0`/`o`, `1`/`l`/`i`),
/// about 49 bits each, shown once as `xxxxx-xxxxx` and stored only as hashes bound to the
/// account. Case, spaces and dashes do not matter when one is typed back.
package enum RecoveryCodes {
    package static let count = 10
    package static let length = 10
    static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyz")

    /// A fresh set, for showing once.
    package static func generate() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let characters = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            return String(characters.prefix(length / 2)) + "-" + String(characters.suffix(length / 2))
        }
    }

    /// A typed code as it was generated: lower case, without spaces or dashes; `nil` when it
    /// cannot be one.
    package static func normalized(_ typed: String) -> String? {
        let kept = typed.lowercased().filter { $0 != " " && $0 != "-" }
        guard kept.count == length, kept.allSatisfy(alphabet.contains) else { return nil }
        return kept
    }

    /// What is stored for a code of an account: SHA-256 over the account and the code.
    package static func hash(_ code: String, userID: String) -> String {
        let normalized = normalized(code) ?? code
        return SHA256.hash(data: Data("gatehouse-recovery:\(userID):\(normalized)".utf8)).hexEncoded
    }
}
