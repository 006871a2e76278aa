import Foundation

/// The validation rules for the email and password fields.
///
/// The defaults are seed 000's: email matches C3's pattern, password has at least 8 characters.
/// A password longer than ``passwordMaximumLength`` gets its own message and is never truncated.
/// Lengths count Unicode code points, as JavaScript's `[...value].length` does, so the web page
/// and LoginCore agree on every input.
public struct FieldRules: Equatable, Sendable, Codable {
    /// Seed 000's C3 email pattern.
    public static let standardEmailPattern = #"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$"#

    /// The pattern the trimmed email must match in full.
    public var emailPattern: String {
        didSet { compiled = CompiledPattern(emailPattern) }
    }
    /// The fewest characters a password may have; 0 or 1 means only "required" (seeds 001, 002).
    public var passwordMinimumLength: Int
    /// The most characters a password may have.
    public var passwordMaximumLength: Int
    /// ``emailPattern`` compiled once: compiling costs about 80 µs, matching about 1 µs.
    private var compiled: CompiledPattern

    /// Creates rules; each parameter defaults to seed 000.
    public init(
        emailPattern: String = FieldRules.standardEmailPattern,
        passwordMinimumLength: Int = 8,
        passwordMaximumLength: Int = 128
    ) {
        self.emailPattern = emailPattern
        compiled = CompiledPattern(emailPattern)
        self.passwordMinimumLength = passwordMinimumLength
        self.passwordMaximumLength = passwordMaximumLength
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case emailPattern, passwordMinimumLength, passwordMaximumLength
    }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let base = FieldRules()
        self.init(
            emailPattern: try container.decodeIfPresent(String.self, forKey: .emailPattern) ?? base.emailPattern,
            passwordMinimumLength: try container.decodeIfPresent(Int.self, forKey: .passwordMinimumLength)
                ?? base.passwordMinimumLength,
            passwordMaximumLength: try container.decodeIfPresent(Int.self, forKey: .passwordMaximumLength)
                ?? base.passwordMaximumLength
        )
    }

    /// The email as it is sent: trimmed, NFKC and case-folded (001 FR-011; ``EmailAddress``).
    public func normalizedEmail(_ raw: String) -> String {
        EmailAddress.normalized(raw)
    }

    /// The issue with an email, or `nil` when it is acceptable.
    public func validateEmail(_ raw: String) -> FieldIssue? {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return .required }
        return matchesEmailPattern(trimmed) ? nil : .invalidFormat
    }

    /// The issue with a password, or `nil` when it is acceptable. Passwords are never trimmed.
    public func validatePassword(_ password: String) -> FieldIssue? {
        let length = password.unicodeScalars.count
        if length == 0 { return .required }
        if length < passwordMinimumLength { return .tooShort(minimum: passwordMinimumLength) }
        if length > passwordMaximumLength { return .tooLong(maximum: passwordMaximumLength) }
        return nil
    }

    /// The issue with one field's value.
    public func validate(_ field: LoginField, _ value: String) -> FieldIssue? {
        switch field {
        case .email: validateEmail(value)
        case .password: validatePassword(value)
        }
    }

    private func matchesEmailPattern(_ value: String) -> Bool {
        guard let regex = compiled.regex else { return false }
        return (try? regex.wholeMatch(in: value)) != nil
    }

    public static func == (a: FieldRules, b: FieldRules) -> Bool {
        a.emailPattern == b.emailPattern && a.passwordMinimumLength == b.passwordMinimumLength
            && a.passwordMaximumLength == b.passwordMaximumLength
    }
}

/// A compiled pattern, shared by copies of the rules; never mutated after creation.
private final class CompiledPattern: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>?

    init(_ pattern: String) {
        regex = try? Regex(pattern).matchingSemantics(.unicodeScalar)
    }
}
