import Foundation

/// Formatting and pre-checking a national number as it is typed, from a ``PhoneCountry``.
///
/// Every keystroke and paste goes through ``edit(_:caret:country:)``: it keeps the digits,
/// drops a pasted or typed dial code (`+91 98765 43210`, or `91 98765 43210` once the digits
/// outgrow a national number) or trunk `0`, caps the length at the region's
/// digit count, groups the digits as the region writes them (`98765 43210`) and moves the caret
/// so it stays after the same digit. ``isComplete(_:country:)`` decides when the tick shows and
/// "Send OTP" may be pressed, with libphonenumber's own rule for the region (served in
/// ``PhoneCountry/mobilePattern``), so the screen and the server give one verdict.
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
        } else if digits.count > maxDigits(country), !digits.hasPrefix("0"), digits.hasPrefix(dial),
            digits.count <= dial.count + maxDigits(country)
        {
            // The country code typed without its `+` (`91 98765 43210`): read as one once the
            // digits outgrow a national number.
            digits.removeFirst(dial.count)
            dropped = dial.count
        }
        if digits.count > maxDigits(country), digits.hasPrefix("0") {
            digits.removeFirst()
            dropped += 1
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

    /// Whether the digits make a whole mobile number for the region.
    ///
    /// With the region's rule from libphonenumber: one of its digit counts, and its pattern
    /// matched whole (`12345 67890` is ten digits but no Indian mobile number). From a server that
    /// sends no rule: seed 004's `validatePhone`, the digit count and no trunk `0` first.
    public static func isComplete(_ digits: String, country: PhoneCountry) -> Bool {
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return false }
        if let pattern = country.mobilePattern {
            if let lengths = country.mobileLengths, !lengths.isEmpty, !lengths.contains(digits.count) { return false }
            guard let rule = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return false }
            let whole = NSRange(digits.startIndex..., in: digits)
            return rule.firstMatch(in: digits, options: [], range: whole) != nil
        }
        guard digits.first != "0" else { return false }
        return country.digits > 0 ? digits.count == country.digits : (4...14).contains(digits.count)
    }

    /// The number in E.164 form for a request (`+919876543210`).
    public static func e164(_ digits: String, country: PhoneCountry) -> String {
        "+" + country.dialCode.filter(\.isASCIIDigit) + digits
    }

    static func maxDigits(_ country: PhoneCountry) -> Int {
        let longest = country.mobileLengths?.max() ?? 0
        return max(country.digits, longest) > 0 ? max(country.digits, longest) : 14
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
