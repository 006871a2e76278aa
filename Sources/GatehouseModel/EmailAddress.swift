import Foundation

/// How an email address becomes an account identifier, the same at sign-in, at account
/// creation and in the login screen.
///
/// Surrounding whitespace is trimmed, then the text is put in Unicode NFKC, case-folded and
/// put in NFKC again (Unicode's NFKC_Casefold, near enough). So the Kelvin sign in
/// `\u{212A}ate@example.com`, full-width letters and `USER@` all name the same account as
/// their plain lower-case spelling, on every path.
public enum EmailAddress {
    public static func normalized(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines)
            .precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
    }

    /// The part after the last `@` of a normalised address, or `nil` when there is none.
    public static func domain(of address: String) -> String? {
        guard let at = address.lastIndex(of: "@"), address.index(after: at) < address.endIndex else { return nil }
        return String(address[address.index(after: at)...])
    }
}
