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
        // Plain ASCII, nearly every address: NFKC leaves it as it is and case folding is
        // lower-casing, so the Unicode passes (run several times a sign-in) are skipped.
        let bytes = raw.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return unicodeNormalized(raw) }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(raw[first...last]).lowercased()
    }

    /// ``normalized(_:)`` for any text: trimmed, NFKC, case-folded, NFKC.
    package static func unicodeNormalized(_ raw: String) -> String {
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
