import CPhoneNumber
import Foundation
import GatehouseCore

/// Reading numbers with Google's libphonenumber.
///
/// Parsing goes through the small C++ target `CPhoneNumber`, which catches every C++
/// exception; Swift sees plain C.
extension PhoneNumber {
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

    /// A NUL-terminated C character array as a Swift string.
    package static func string<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
