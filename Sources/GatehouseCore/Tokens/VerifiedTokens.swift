import NIOConcurrencyHelpers

/// Access tokens whose signature this process has already checked, so a token presented
/// again costs no ECDSA verification (a fifth of an authenticated request's CPU).
///
/// An entry is the exact token string, so only that string can hit it. What can change after
/// the check is judged again on every hit: expiry (against the clock) and whether the
/// signing key is still active (``KeyRing/isActive(_:)``). At ``capacity`` it starts empty.
package final class VerifiedTokens: Sendable {
    private let entries = NIOLockedValueBox([String: (claims: AccessTokenClaims, kid: String)]())
    package let capacity: Int

    package init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    /// The claims and key of a token verified before, if it was.
    package func lookup(_ token: String) -> (claims: AccessTokenClaims, kid: String)? {
        entries.withLockedValue { $0[token] }
    }

    /// Remembers a token whose signature, issuer and audience were verified.
    package func keep(_ token: String, claims: AccessTokenClaims, kid: String) {
        entries.withLockedValue { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[token] = (claims, kid)
        }
    }
}
