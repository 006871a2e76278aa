/// Compares secrets without leaking, through timing, how much of them matched.
///
/// Every byte is looked at whatever the earlier bytes were; only the lengths are compared
/// first, and they are not secret (a token's or a hash's length is public). The one place the
/// server compares a presented secret with an expected one: CSRF tokens, API keys, nonces,
/// PKCE challenges, device tokens and password hashes.
package enum ConstantTime {
    /// Whether two byte sequences are equal, in time that depends only on their length.
    package static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether two strings have the same UTF-8 bytes, compared byte by byte as above.
    package static func equal(_ a: String, _ b: String) -> Bool {
        equal(Array(a.utf8), Array(b.utf8))
    }
}
