import CPhoneNumber
import Foundation

/// A phone number as Google's libphonenumber reads it: valid or not, its type, its E.164 form.
///
/// Parsing goes through the small C++ target `CPhoneNumber`, which catches every C++
/// exception; Swift sees plain C. Only numbers that can receive SMS may get a code.
public struct PhoneNumber: Sendable, Equatable {
    /// libphonenumber's number types, in its order.
    public enum Kind: Int32, Sendable {
        case fixedLine, mobile, fixedLineOrMobile, tollFree, premiumRate, sharedCost, voip
        case personalNumber, pager, uan, voicemail, unknown
    }

    /// `+919876543210`.
    public let e164: String
    /// `+91 98765 43210`.
    public let international: String
    /// The ISO 3166 region the number belongs to (`IN`), `001` for non-geographic numbers, or
    /// empty when no region's rules fit (an invalid number).
    public let region: String
    public let countryCode: Int
    public let kind: Kind
    public let isValid: Bool

    /// Whether a code may be sent to it: valid, and MOBILE or FIXED_LINE_OR_MOBILE.
    public var canReceiveSMS: Bool { isValid && (kind == .mobile || kind == .fixedLineOrMobile) }

    /// Inputs longer than this are refused before the library sees them.
    private static let maximumInputLength = 64

    /// Parses `text` as dialled in `region`; a leading `+` overrides the region. `nil` when it is
    /// not a phone number at all.
    public static func parse(_ text: String, region: String) -> PhoneNumber? {
        guard text.utf8.count <= maximumInputLength, !text.contains("\0"), region.utf8.count <= 3, !region.contains("\0") else {
            return nil
        }
        var parsed = gh_phone_parsed()
        gh_phone_parse(text, region.uppercased(), &parsed)
        guard parsed.error == 0 else { return nil }
        let region = string(&parsed.region)
        return PhoneNumber(
            // libphonenumber says "ZZ" for a number of no known region; this type says "".
            e164: string(&parsed.e164), international: string(&parsed.international), region: region == "ZZ" ? "" : region,
            countryCode: Int(parsed.country_code), kind: Kind(rawValue: parsed.type) ?? .unknown, isValid: parsed.valid != 0
        )
    }

    /// The last four digits, the rest masked: `+91 ••••• •3210`.
    public var masked: String {
        let national = international.dropFirst("+\(countryCode)".count)
        var digitsLeft = national.filter(\.isNumber).count
        return "+\(countryCode)" + String(national.map { character -> Character in
            guard character.isNumber else { return character }
            digitsLeft -= 1
            return digitsLeft < 4 ? character : "•"
        })
    }

    /// A NUL-terminated C character array as a Swift string.
    static func string<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
