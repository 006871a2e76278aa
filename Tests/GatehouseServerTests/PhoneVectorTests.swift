import Foundation
import GatehouseCore
import GatehouseModel
import GatehousePhoneNumbers
import LoginCore
import Testing

/// The shared phone vectors (`testdata/phone-vectors.json`): numbers typed key by key, the
/// national digits the field keeps, and libphonenumber's verdict on them.
///
/// One suite holds both ends: every verdict is checked against the server's libphonenumber, and
/// LoginCore's phone field, typing the same keys with the region as the server serves it, must
/// keep the same digits and give the same verdict. `e2e/test_vectors.py` types them into the page.
@Suite("Phone vectors: LoginCore and the server give one verdict")
struct PhoneVectorTests {
    struct Vector: Decodable, CustomTestStringConvertible {
        var region: String
        var typed: String
        var digits: String
        var valid: Bool
        var testDescription: String { "\(region) \(typed)" }
    }

    static let vectors: [Vector] = {
        struct File: Decodable { var vectors: [Vector] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("testdata/phone-vectors.json")
        return (try? JSONDecoder().decode(File.self, from: Data(contentsOf: url)).vectors) ?? []
    }()

    @Test func theVectorsAreThere() {
        #expect(Self.vectors.count >= 30)
        #expect(Set(Self.vectors.map(\.valid)) == [true, false])
    }

    @Test("libphonenumber agrees with each vector's verdict", arguments: vectors)
    func serverVerdict(_ vector: Vector) throws {
        let country = try #require(PhoneCountry.make(vector.region))
        guard !vector.digits.isEmpty else { return #expect(!vector.valid) }
        let number = PhoneNumber.parse(PhoneNumberInput.e164(vector.digits, country: country), region: vector.region)
        #expect((number?.canReceiveSMS ?? false) == vector.valid)
    }

    @Test("LoginCore typed key by key keeps the vector's digits and gives its verdict", arguments: vectors)
    func loginCoreVerdict(_ vector: Vector) throws {
        let country = try #require(PhoneCountry.make(vector.region))
        #expect(country.mobilePattern != nil)
        var edit = PhoneNumberInput.edit("", country: country)
        for key in vector.typed {
            edit = PhoneNumberInput.edit(edit.text + String(key), country: country)
        }
        #expect(edit.digits == vector.digits)
        #expect(PhoneNumberInput.isComplete(edit.digits, country: country) == vector.valid)
    }

    @Test("the phone form announces a tick only for what the server accepts")
    func phoneFormTick() throws {
        let india = try #require(PhoneCountry.make("IN"))
        let form = PhoneSignInForm()
        var state = form.initialState(mode: .signIn)
        _ = form.step(.countriesLoaded([india], preferred: "IN"), to: &state)
        _ = form.step(.numberChanged("12345 67890", caret: nil), to: &state)
        #expect(!state.isNumberComplete && !state.isSendEnabled)
        _ = form.step(.numberChanged("98765 43210", caret: nil), to: &state)
        #expect(state.isNumberComplete && state.isSendEnabled)
    }
}
