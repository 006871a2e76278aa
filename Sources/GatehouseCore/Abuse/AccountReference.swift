import Crypto
import Foundation

/// Keyed, non-reversible names for identifiers and devices, under a server-wide secret.
///
/// Limits are counted and attacks logged against ``reference(for:)`` rather than the email
/// or phone itself, so neither the throttle table nor the log learns who was targeted, yet an
/// operator can count attempts per account. Device tokens are signed with the same key.
package struct AccountKeys: Sendable {
    package let key: SymmetricKey

    /// The name of the secret in ``SecretRepository``.
    package static let secretName = "abuse-hmac-v1"

    package init(key: SymmetricKey) {
        self.key = key
    }

    /// The keys every instance shares, from ``SecretRepository``.
    package static func open(_ secrets: some SecretRepository) async throws -> AccountKeys {
        AccountKeys(key: try await secrets.key(named: secretName))
    }

    /// A stable reference for a normalised identifier: 32 hex digits of an HMAC.
    package func reference(for identifier: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("account:\(identifier)".utf8), using: key)
        return mac.prefix(16).hexEncoded
    }

    /// A new device token for an account, valid until `expires`.
    package func deviceToken(for reference: String, expires: Date) -> String {
        let nonce = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }.base64URLEncoded()
        let body = "\(Int(expires.timeIntervalSince1970)).\(reference).\(nonce)"
        return body + "." + sign(body)
    }

    /// The device id of a token that is genuine, unexpired and issued for `reference`.
    package func device(in token: String?, for reference: String, now: Date) -> String? {
        guard let token, token.utf8.count < 256 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, let expires = TimeInterval(parts[0]), now.timeIntervalSince1970 < expires,
              parts[1] == reference
        else { return nil }
        let body = parts[0...2].joined(separator: ".")
        guard ConstantTime.equal(sign(body), String(parts[3])) else { return nil }
        return String(parts[2])
    }

    private func sign(_ body: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data("device:\(body)".utf8), using: key)).base64URLEncoded()
    }
}
