/// Formatting and pre-checking a national number as it is typed, from a ``PhoneCountry``.
///
/// Every keystroke and paste goes through ``edit(_:caret:country:)``: it keeps the digits,
/// drops a pasted or typed dial code (`+91 98765 43210`) or trunk `0`, caps the length at the region's
/// digit count, groups the digits as the region writes them (`98765 43210`) and moves the caret
/// so it stays after the same digit. The server, with libphonenumber, stays the authority on
/// validity; ``isComplete(_:country:)`` only decides when "Send OTP" may be pressed.
public enum PhoneNumberInput {
    /// The result of an edit: the text to show and where the caret goes.
    public struct Edit: Equatable, Sendable {
        public var text: String
        public var digits: String
        /// The caret as a count of characters from the start of `text`.
        public var caret: Int
    }

    /// Formats what the field now holds.
    /// - Parameters:
    ///   - raw: the field's text after the keystroke or paste.
    ///   - caret: where the caret is in `raw`, in characters; `nil` means at the end.
    ///   - country: the selected region.
    public static func edit(_ raw: String, caret: Int? = nil, country: PhoneCountry) -> Edit {
        let caretIndex = min(max(caret ?? raw.count, 0), raw.count)
        let digitsBeforeCaret = raw.prefix(caretIndex).filter(\.isASCIIDigit).count
        var digits = String(raw.filter(\.isASCIIDigit))
        var dropped = 0
        let dial = String(country.dialCode.filter(\.isASCIIDigit))
        let trimmed = raw.drop(while: { $0 == " " })
        if trimmed.hasPrefix("+") || trimmed.hasPrefix("00") {
            let international = trimmed.hasPrefix("00") ? "" : "+"
            let prefix = (trimmed.hasPrefix("00") ? "00" : "") + dial
            if digits.hasPrefix(prefix), digits.count > prefix.count {
                digits.removeFirst(prefix.count)
                dropped = prefix.count
            } else {
                // Still typing the country code (`+`, `+9`, `+91`), or another country's: kept as
                // typed, never read as national digits, and never a whole number.
                let text = international + String(digits.prefix(15))
                return Edit(text: text, digits: "", caret: text.count)
            }
        } else if digits.count > maxDigits(country), digits.hasPrefix("0") {
            digits.removeFirst()
            dropped = 1
        }
        digits = String(digits.prefix(maxDigits(country)))
        let text = format(digits, country: country)
        let wanted = min(max(digitsBeforeCaret - dropped, 0), digits.count)
        return Edit(text: text, digits: digits, caret: position(afterDigit: wanted, in: text))
    }

    /// The digits grouped as the region writes them: `9876543210` → `98765 43210`.
    public static func format(_ digits: String, country: PhoneCountry) -> String {
        var groups: [Substring] = []
        var rest = Substring(digits)
        for size in country.grouping where !rest.isEmpty {
            groups.append(rest.prefix(size))
            rest = rest.dropFirst(size)
        }
        if !rest.isEmpty { groups.append(rest) }
        return groups.joined(separator: " ")
    }

    /// Whether the digits make a whole mobile number for the region: its digit count, and not a
    /// trunk `0` first (seed 004's `validatePhone`).
    public static func isComplete(_ digits: String, country: PhoneCountry) -> Bool {
        guard digits.allSatisfy(\.isASCIIDigit), digits.first != "0" else { return false }
        return country.digits > 0 ? digits.count == country.digits : (4...14).contains(digits.count)
    }

    /// The number in E.164 form for a request (`+919876543210`).
    public static func e164(_ digits: String, country: PhoneCountry) -> String {
        "+" + country.dialCode.filter(\.isASCIIDigit) + digits
    }

    static func maxDigits(_ country: PhoneCountry) -> Int {
        country.digits > 0 ? country.digits : 14
    }

    private static func position(afterDigit count: Int, in text: String) -> Int {
        guard count > 0 else { return 0 }
        var seen = 0
        for (offset, character) in text.enumerated() where character.isASCIIDigit {
            seen += 1
            if seen == count { return offset + 1 }
        }
        return text.count
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
