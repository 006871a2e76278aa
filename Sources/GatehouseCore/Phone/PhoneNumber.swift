import Foundation

/// A phone number as a ``PhoneNumberReader`` reads it: valid or not, its type, its E.164 form.
///
/// Only numbers that can receive SMS may get a code.
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

    public init(e164: String, international: String, region: String, countryCode: Int, kind: Kind, isValid: Bool) {
        self.e164 = e164
        self.international = international
        self.region = region
        self.countryCode = countryCode
        self.kind = kind
        self.isValid = isValid
    }

    /// Whether a code may be sent to it: valid, and MOBILE or FIXED_LINE_OR_MOBILE.
    public var canReceiveSMS: Bool { isValid && (kind == .mobile || kind == .fixedLineOrMobile) }

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
}
