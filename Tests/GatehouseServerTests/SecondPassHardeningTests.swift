import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 21, the second attacker's pass: the silent account check on registration, and names
/// with control characters, each with the attacker's exact input. (`return_to` is
/// `ReturnPathTests`; the browser's side is `e2e/test_hardening_second_pass.py`.)
@Suite struct SecondPassHardeningTests {
    static func silent(_ fixture: Fixture) -> (inout GatehouseConfiguration) -> Void {
        { PhoneSignInTests.phoneOn(fixture)(&$0); $0.phone?.silentAccountCheck = true; $0.phone?.requestsPerAddress = 1000 }
    }

    @Test func H21_silentRegistrationAnswersATakenNumberLikeANewOneAndItsCodeSignsTheOwnerIn() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(Self.silent(fixture)) { client in
            let taken = try await client.postJSON("/api/auth/phone/register", #"{"name":"Mallory","phone":"+919876543210"}"#)
            let fresh = try await client.postJSON("/api/auth/phone/register", #"{"name":"Ravi Kumar","phone":"+919123456789"}"#)
            #expect(taken.status == .ok && fresh.status == .ok, "no 409 phone_taken in silent mode")
            let keys = { (response: TestResponse) in
                try (JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?.keys.sorted()
            }
            #expect(try keys(taken) == keys(fresh))
            #expect(taken.headers[.contentType] == fresh.headers[.contentType])
            let sent = try await fixture.outboxMessages(count: 2)
            #expect(sent.map(\.to).sorted() == ["+919123456789", "+919876543210"], "the same work: both get an SMS")
            // The owner's code signs the owner in; the typed name changes nothing.
            let id = try taken.decoded(PhoneCodeSent.self).verificationID
            let signedIn = try await client.verify(id, try #require(sent.first { $0.to == "+919876543210" }?.code))
            #expect(signedIn.status == .ok)
            #expect(try signedIn.decoded(TokenGrant.self).user.name == "Asha Rao")
        }
    }

    @Test func H21_registrationWithoutSilentModeStillSaysTheNumberIsTaken() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(PhoneSignInTests.phoneOn(fixture)) { client in
            let taken = try await client.postJSON("/api/auth/phone/register", #"{"name":"Mallory","phone":"+919876543210"}"#)
            #expect(taken.status == .conflict)
        }
    }

    @Test(arguments: [
        (#"\u0000<script>"#, "A name must not contain control characters"),
        (#"a\u0000b\u0007c\nd"#, "A name must not contain control characters"),
        (#"Ravi\u0085"#, "A name must not contain control characters"),
        (#"\u202Egnp.exe"#, "A name must not contain text-direction controls"),
        (#"Ravi \u2066Kumar"#, "A name must not contain text-direction controls"),
    ])
    func H21_registrationRefusesControlAndBidiCharactersWith400(json name: String, message: String) async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(PhoneSignInTests.phoneOn(fixture)) { client in
            let response = try await client.postJSON("/api/auth/phone/register", #"{"name":"\#(name)","phone":"+919123456789"}"#)
            #expect(response.status == .badRequest)
            #expect(try response.decoded(ErrorBody.self) == ErrorBody(error: "invalid_request", message: message))
        }
        #expect(try fixture.outboxMessages().isEmpty, "nothing sent")
        #expect(try await !fixture.storedText(["one_time_secrets"]).contains("script"), "nothing stored")
    }

    @Test func H21_aNameIsStoredInNFCAndTrimmed() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(PhoneSignInTests.phoneOn(fixture)) { client in
            // "José" with a combining acute accent, surrounded by spaces.
            let response = try await client.postJSON("/api/auth/phone/register", #"{"name":"  Jose\u0301 Ruiz  ","phone":"+919123456789"}"#)
            #expect(response.status == .ok)
            let id = try response.decoded(PhoneCodeSent.self).verificationID
            let signedIn = try await client.verify(id, try #require(fixture.outboxMessages().last?.code))
            #expect(try signedIn.decoded(TokenGrant.self).user.name == "Jos\u{E9} Ruiz")
        }
    }

    @Test(arguments: ["\u{0}<script>", "a\u{0}b\u{7}c\nd", "\u{202E}gnp.exe", "x\u{2069}"])
    func H21_usersCreateRefusesTheSameNames(name: String) async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        await #expect(throws: AdministrationError.self) {
            try await fixture.withAdministration { try await $0.create(email: "new@example.com", name: name, password: "password123") }
        }
        await #expect(throws: AdministrationError.self) {
            try await fixture.withAdministration { try await $0.create(phone: "+919123456789", name: name) }
        }
    }

    @Test(arguments: ["", " ", String(repeating: "a", count: 101)])
    func H21_theRuleRefusesEmptyAndOverlongNames(name: String) {
        #expect(throws: PersonName.Problem.self) { try PersonName.checked(name) }
    }

    /// Issue 35, point 12: invisible format characters (category Cf) and names with nothing
    /// visible are refused wherever a name is taken; the joiners Persian and Indic names need
    /// still pass.
    @Test(arguments: [
        ("\u{200B}", PersonName.Problem.invisibleCharacter), ("\u{FEFF}", .invisibleCharacter), ("\u{200B}\u{200B}", .invisibleCharacter),
        ("Ra\u{200B}vi", .invisibleCharacter), ("Ravi\u{200E}", .invisibleCharacter), ("\u{2060}Ravi", .invisibleCharacter),
        ("\u{200D}", .empty), ("\u{200C} \u{200D}", .empty),
    ])
    func S12_invisibleCharactersAndNamesWithNothingVisibleAreRefused(name: String, problem: PersonName.Problem) {
        #expect(throws: problem) { try PersonName.checked(name) }
    }

    @Test(arguments: ["\u{0645}\u{0647}\u{200C}\u{0633}\u{0627}", "Ravi Kumar", "\u{0915}\u{094D}\u{200D}\u{0937}"])
    func S12_namesThatNeedAJoinerStillPass(name: String) throws {
        #expect(try PersonName.checked(name) == name)
    }

    @Test func S12_registrationRefusesAZeroWidthNameWith400() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(PhoneSignInTests.phoneOn(fixture)) { client in
            let response = try await client.postJSON("/api/auth/phone/register", #"{"name":"\u200b","phone":"+919123456789"}"#)
            #expect(response.status == .badRequest)
            #expect(try response.decoded(ErrorBody.self) == ErrorBody(error: "invalid_request", message: "A name must not contain invisible characters"))
        }
        #expect(try fixture.outboxMessages().isEmpty, "nothing sent")
    }
}
