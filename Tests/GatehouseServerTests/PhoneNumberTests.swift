import Foundation
import GatehouseCore
import GatehouseModel
import GatehousePhoneNumbers
import Testing

/// libphonenumber through the C shim: validity, type, E.164 and the countries the screen uses.
@Suite struct PhoneNumberTests {
    @Test func anIndianMobileIsValidAndNormalisedToE164() throws {
        let number = try #require(PhoneNumber.parse("98765 43210", region: "IN"))
        #expect(number.e164 == "+919876543210" && number.isValid && number.kind == .mobile && number.canReceiveSMS)
        #expect(number.region == "IN" && number.countryCode == 91 && number.international == "+91 98765 43210")
        #expect(number.masked == "+91 ••••• •3210")
    }

    @Test func aFullInternationalNumberOverridesTheRegion() throws {
        let number = try #require(PhoneNumber.parse("+91 98765 43210", region: "US"))
        #expect(number.e164 == "+919876543210" && number.region == "IN")
    }

    @Test func indianFixedLine1234567890IsValidButCannotReceiveSMS() throws {
        let number = try #require(PhoneNumber.parse("1234567890", region: "IN"))
        #expect(number.isValid && number.kind == .fixedLine && !number.canReceiveSMS)
    }

    @Test func textThatIsNoNumberAndHugeOrOddInputGiveNil() {
        #expect(PhoneNumber.parse("hello", region: "IN") == nil)
        #expect(PhoneNumber.parse(String(repeating: "9", count: 10_000), region: "IN") == nil)
        #expect(PhoneNumber.parse("98765\u{0}43210", region: "IN") == nil)
        #expect(PhoneNumber.parse("98765 43210", region: "ZZZZ") == nil)
        let short = PhoneNumber.parse("98765", region: "IN")
        #expect(short.map { !$0.isValid } ?? true)
    }

    @Test func indiaIsDescribedWithItsDialCodeNameFlagAndGrouping() throws {
        let india = try #require(PhoneCountry.make("IN"))
        #expect(india.dialCode == "+91" && india.name == "India" && india.flag == "🇮🇳")
        #expect(india.digits == 10 && india.grouping == [5, 5] && india.example.count == 11)
        #expect(PhoneCountry.make("XX") == nil && PhoneCountry.make("1N") == nil)
        #expect(PhoneCountry.supportedRegions.contains("IN") && PhoneCountry.supportedRegions.count > 200)
    }
}
