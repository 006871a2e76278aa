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
        let rule = mobileRule(code)
        return PhoneCountry(
            code: code, dialCode: dial,
            name: Locale(identifier: language).localizedString(forRegionCode: code) ?? code,
            flag: String(String.UnicodeScalarView(code.unicodeScalars.compactMap { Unicode.Scalar(0x1F1A5 + $0.value) })),
            example: groups.joined(separator: " "), digits: groups.reduce(0) { $0 + $1.count }, grouping: groups.map(\.count),
            mobilePattern: rule?.pattern, mobileLengths: rule?.lengths
        )
    }

    /// libphonenumber's rule for the region's mobile numbers: the pattern and digit counts its
    /// own validation uses.
    static func mobileRule(_ region: String) -> (pattern: String, lengths: [Int])? {
        var lengths = [Int32](repeating: 0, count: 16)
        var count = 0
        var buffer = [CChar](repeating: 0, count: 4096)
        let needed = gh_phone_mobile_rule(region, &buffer, buffer.count, &lengths, lengths.count, &count)
        guard needed > 0 else { return nil }
        if needed > buffer.count {
            buffer = [CChar](repeating: 0, count: needed)
            _ = gh_phone_mobile_rule(region, &buffer, buffer.count, &lengths, lengths.count, &count)
        }
        let pattern = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !pattern.isEmpty, pattern != "NA" else { return nil }
        return (pattern, lengths.prefix(count).map(Int.init))
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
