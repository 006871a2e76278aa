import CPhoneNumber
import Foundation
import GatehouseCore
import GatehouseModel

extension PhoneCountry {
    /// The region, or `nil` when libphonenumber does not know it.
    public static func make(_ region: String, language: String = "en") -> PhoneCountry? {
        let code = region.uppercased()
        guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        var info = gh_phone_region()
        guard gh_phone_region_info(code, &info) == 0 else { return nil }
        let dial = "+\(info.country_code)"
        let international = PhoneNumber.string(&info.example_international)
        let national = international.hasPrefix(dial) ? String(international.dropFirst(dial.count)).trimmingCharacters(in: .whitespaces) : ""
        let groups = national.split(whereSeparator: { !$0.isNumber })
        return PhoneCountry(
            code: code, dialCode: dial,
            name: Locale(identifier: language).localizedString(forRegionCode: code) ?? code,
            flag: String(String.UnicodeScalarView(code.unicodeScalars.compactMap { Unicode.Scalar(0x1F1A5 + $0.value) })),
            example: groups.joined(separator: " "), digits: groups.reduce(0) { $0 + $1.count }, grouping: groups.map(\.count)
        )
    }

    /// Every region libphonenumber knows.
    public static var supportedRegions: [String] {
        let needed = gh_phone_supported_regions(nil, 0)
        var buffer = [CChar](repeating: 0, count: max(needed, 1))
        _ = gh_phone_supported_regions(&buffer, buffer.count)
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .split(separator: ",").map(String.init)
    }
}
