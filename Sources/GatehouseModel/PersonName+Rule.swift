import Foundation

extension PersonName {
    /// The most characters a one-line name may have.
    public static let maximumLength = 100

    /// Why a name was refused; ``message`` says it plainly.
    public enum Problem: Error, Equatable, Sendable {
        /// Nothing but white space.
        case empty
        /// Over ``PersonName/maximumLength`` characters.
        case tooLong
        /// A C0 or C1 control character (NUL, BEL, a newline, …).
        case controlCharacter
        /// A bidirectional override or isolate (U+202A–202E, U+2066–2069), which can make a name
        /// display as another.
        case bidiControl

        /// The refusal in plain words, naming no character of the name.
        public var message: String {
            switch self {
            case .empty: "A name is required"
            case .tooLong: "A name must be at most \(PersonName.maximumLength) characters"
            case .controlCharacter: "A name must not contain control characters"
            case .bidiControl: "A name must not contain text-direction controls"
            }
        }
    }

    /// The one rule every name entering Gatehouse passes (registration, the profile step, a
    /// provider's profile, `users create`): control characters and bidi controls are refused
    /// before the length is counted, then the name is put in NFC and trimmed.
    ///
    /// Refusing rather than stripping keeps what is stored equal to what was typed: a name
    /// with a NUL is never silently cut short in one table and kept whole in another.
    /// - Returns: the name as it is stored.
    public static func checked(_ text: String) throws(Problem) -> String {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F: throw .controlCharacter
            case 0x202A...0x202E, 0x2066...0x2069: throw .bidiControl
            default: continue
            }
        }
        let name = text.precomposedStringWithCanonicalMapping.trimmingWhitespace
        if name.isEmpty { throw .empty }
        if name.count > maximumLength { throw .tooLong }
        return name
    }
}
