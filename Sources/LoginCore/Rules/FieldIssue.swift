/// Why a field's value is not acceptable.
public enum FieldIssue: Equatable, Sendable {
    case required
    case invalidFormat
    case tooShort(minimum: Int)
    case tooLong(maximum: Int)

    /// The catalogue text for this issue on the given field.
    /// - Parameters:
    ///   - field: the field that has the issue.
    ///   - messages: the catalogue to read from.
    public func message(for field: LoginField, in messages: MessageCatalogue) -> String {
        switch (field, self) {
        case (.email, .required): messages.text(.emailRequired)
        case (.email, _): messages.text(.emailInvalid)
        case (.password, .required): messages.text(.passwordRequired)
        case (.password, .tooShort(let minimum)): messages.text(.passwordTooShort, ["min": String(minimum)])
        case (.password, .tooLong(let maximum)): messages.text(.passwordTooLong, ["max": String(maximum)])
        case (.password, .invalidFormat): messages.text(.passwordRequired)
        }
    }
}

/// The two text fields of the form.
public enum LoginField: String, Equatable, Sendable, CaseIterable, Codable {
    case email
    case password
}
