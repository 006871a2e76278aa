import Crypto
import Foundation

/// The one-time code arithmetic every channel shares: issue, MAC, judge a claimed try, compare.
///
/// Codes are decimal digits from the system CSPRNG, stored only as an HMAC-SHA256 of
/// `id:code` under a server secret (a plain hash of a million possibilities falls to an
/// offline search). A try is counted by the store (`claimAttempt`) before it is compared, so
/// the verdicts here only read what the store said: phone codes and mail codes alike.
package struct OneTimeCode: Sendable {
    /// Keys the code MACs; every instance shares it through ``SecretRepository``.
    package let key: SymmetricKey
    /// Wrong tries a code survives; the last one burns it.
    package let maximumAttempts: Int

    package init(key: SymmetricKey, maximumAttempts: Int) {
        self.key = key
        self.maximumAttempts = maximumAttempts
    }

    /// `length` decimal digits, uniformly from the system CSPRNG.
    package static func generate(length: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in Character(String(UInt8.random(in: 0...9, using: &generator))) })
    }

    /// The stored form of `code` for the secret `id`.
    package func mac(id: String, code: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(id):\(code)".utf8), using: key).hexEncoded
    }

    /// Whether `code` is the one whose MAC is stored, compared in constant time (HMAC
    /// verification) whatever `code` is.
    package func matches(_ code: String, id: String, mac stored: String?) -> Bool {
        guard let stored, let expected = Data(hex: stored) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: Data("\(id):\(code)".utf8), using: key)
    }

    /// Why a code the store would not let be tried cannot be used: burned by wrong tries while
    /// still live, otherwise expired (used, replaced, past its lifetime, or unknown).
    package func unclaimable(consumed: Bool, expiresAt: Date?, attempts: Int, now: Date) -> GatehouseError {
        guard let expiresAt, !consumed, now < expiresAt, attempts >= maximumAttempts else { return .codeRejected(.expired) }
        return .codeRejected(.exhausted)
    }

    /// The refusal of a wrong code after `attempts` counted tries: the tries left, or burned.
    package func wrongCode(attempts: Int) -> GatehouseError {
        let left = maximumAttempts - attempts
        return .codeRejected(left > 0 ? .incorrect(attemptsLeft: left) : .exhausted)
    }
}
