import Foundation

/// One rule a form field's value must meet, with the message shown when it does not.
///
/// The account forms (sign-up, verification, reset) describe each field as a list of checks;
/// LoginCore validates with them on blur and on submit, and the web page receives the same
/// list as data (`data-check-*` attributes), so the page and LoginCore cannot disagree. The
/// first failing check's message is the field's error.
public enum FieldCheck: Equatable, Sendable {
    /// Not empty; `trimmed` ignores surrounding white space (names, addresses, codes; never passwords).
    case required(String, trimmed: Bool)
    /// The trimmed value matches this pattern whole (ECMAScript and Swift `Regex` alike).
    case pattern(String, String)
    /// At least this many characters, counted as Unicode code points (JavaScript's `[...value]`).
    case minimumLength(Int, String)
    /// At most this many bytes of UTF-8.
    case maximumBytes(Int, String)

    /// This check's message when `value` fails it, or `nil`.
    public func issue(with value: String) -> String? {
        switch self {
        case .required(let message, let trimmed):
            let checked = trimmed ? value.trimmingCharacters(in: .whitespacesAndNewlines) : value
            return checked.isEmpty ? message : nil
        case .pattern(let pattern, let message):
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let regex = try? Regex(pattern).matchingSemantics(.unicodeScalar) else { return message }
            return (try? regex.wholeMatch(in: trimmed)) == nil ? message : nil
        case .minimumLength(let minimum, let message):
            return value.unicodeScalars.count < minimum ? message : nil
        case .maximumBytes(let maximum, let message):
            return value.utf8.count > maximum ? message : nil
        }
    }

    /// The first failing check's message, or `nil` when `value` meets them all.
    public static func firstIssue(in checks: [FieldCheck], with value: String) -> String? {
        checks.lazy.compactMap { $0.issue(with: value) }.first
    }
}

/// The fields of the account forms.
public enum AccountField: String, Equatable, Sendable, CaseIterable {
    case name, email, password, code
}
