/// A k-anonymity range API of breached passwords (Have I Been Pwned's `GET /range/{prefix}`):
/// the adapter sends the first five hex digits of the password's SHA-1 and reads back the
/// suffixes it knows.
public protocol BreachedPasswords: Sendable {
    /// The upper-case SHA-1 suffixes (35 hex digits) the API lists for a 5-digit prefix;
    /// throws when the API cannot be reached, and the policy then lets the password through.
    func suffixes(prefix: String) async throws -> Set<String>
}
