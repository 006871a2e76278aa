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
        /// An invisible format character (Unicode category Cf: a zero-width space, a byte-order
        /// mark, a directional mark), which makes two names that look alike differ.
        case invisibleCharacter

        /// The refusal in plain words, naming no character of the name.
        public var message: String {
            switch self {
            case .empty: "A name is required"
            case .tooLong: "A name must be at most \(PersonName.maximumLength) characters"
            case .controlCharacter: "A name must not contain control characters"
            case .bidiControl: "A name must not contain text-direction controls"
            case .invisibleCharacter: "A name must not contain invisible characters"
            }
        }
    }

    /// The one rule every name entering Gatehouse passes (registration, the profile step, a
    /// provider's profile, `users create`): control characters, bidi controls and other
    /// invisible format characters are refused before the length is counted, then the name is
    /// put in NFC and trimmed, and must show at least one visible character.
    ///
    /// The zero-width joiner and non-joiner (U+200C, U+200D) are the only format characters let
    /// through: Persian and Indic names and emoji sequences need them to be spelled at all. A
    /// name made of nothing else is still refused, as empty.
    ///
    /// Refusing rather than stripping keeps what is stored equal to what was typed: a name
    /// with a NUL is never silently cut short in one table and kept whole in another.
    /// - Returns: the name as it is stored.
    public static func checked(_ text: String) throws(Problem) -> String {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F: throw .controlCharacter
            case 0x202A...0x202E, 0x2066...0x2069: throw .bidiControl
            case 0x200C, 0x200D: continue
            default: if scalar.properties.generalCategory == .format { throw .invisibleCharacter }
            }
        }
        let name = text.precomposedStringWithCanonicalMapping.trimmingWhitespace
        if name.isEmpty || !name.unicodeScalars.contains(where: Self.isVisible) { throw .empty }
        if name.count > maximumLength { throw .tooLong }
        return name
    }

    /// Whether a character shows: a letter, mark, number, punctuation or symbol.
    public static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark,
             .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation, .dashPunctuation,
             .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol,
             .currencySymbol, .modifierSymbol, .otherSymbol:
            true
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .privateUse, .unassigned:
            false
        @unknown default:
            false
        }
    }
}
