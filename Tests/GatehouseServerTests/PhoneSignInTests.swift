import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GatehouseModel
import GatehouseServer
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Seed 004's phone sign-in over REST: codes, their limits, the outbox, registration.
@Suite struct PhoneSignInTests {
    static let phone = "+919876543210"

    /// A fixture with a phone account, and phone sign-in on with the outbox in its folder.
    static func fixture() async throws -> Fixture {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.withAdministration { try await $0.create(phone: phone, name: "Asha Rao") }
        return fixture
    }

    static func phoneOn(_ fixture: Fixture) -> (inout GatehouseConfiguration) -> Void {
        { configuration in
            configuration.phone = PhonePolicy()
            configuration.phone?.appName = "UrbanNest"
            configuration.sms = .outbox(path: fixture.outbox)
        }
    }

    @Test func A_sendThenVerifySignsInOnceWithTheCodeFromTheOutbox() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            let sent = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"98765 43210","country":"IN"}"#)
            #expect(sent.status == .ok)
            let body = try sent.decoded(PhoneCodeSent.self)
            #expect(body.phoneMasked == "+91 ••••• •3210" && body.expiresIn == 300 && body.resendAfter == 60 && body.codeLength == 6)
            let message = try #require(fixture.outboxMessages().last)
            #expect(message.to == Self.phone && message.code.count == 6 && message.code.allSatisfy(\.isNumber))
            #expect(message.body == "\(message.code) is your UrbanNest code. It expires in 5 minutes. Don't share it.\n\n@localhost #\(message.code)")
            let verified = try await client.verify(body.verificationID, message.code)
            #expect(verified.status == .ok && verified.headers[.cacheControl] == "no-store")
            let grant = try verified.decoded(TokenGrant.self)
            let me = try await client.me(grant.accessToken)
            #expect(me.status == .ok)
            let again = try await client.verify(body.verificationID, message.code)
            #expect(try again.status == .gone && (again.decoded(ErrorBody.self)).error == "code_expired", "single use")
            let stored = try await fixture.storedText(["one_time_secrets", "throttles"])
            #expect(!stored.contains(message.code), "codes are stored only as an HMAC")
        }
    }

    @Test func B_aFullInternationalNumberIsAcceptedAndBadNumbersAre400() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            let full = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+91 98765 43210"}"#)
            #expect(full.status == .ok)
            for bad in [#""1234567890","country":"IN""#, #""98765","country":"IN""#, #""hello""#, #""+1 202 555 0123""#] {
                let response = try await client.postJSON("/api/auth/phone/otp", "{\"phone\":\(bad)}")
                #expect(response.status == .badRequest, "\(bad)")
                #expect(try (response.decoded(ErrorBody.self)).error == "invalid_phone")
            }
            #expect(try fixture.outboxMessages().count == 1)
        }
    }

    @Test func C_anUnknownNumberIs404AndSilentModeAnswers200WithoutAnSMS() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            let unknown = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"91234 56789","country":"IN"}"#)
            #expect(unknown.status == .notFound)
            #expect(try unknown.decoded(ErrorBody.self) == ErrorBody(error: "account_not_found", message: "No account found. Create one?"))
        }
        try await fixture.test({ Self.phoneOn(fixture)(&$0); $0.phone?.silentAccountCheck = true }) { client in
            let unknown = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"91234 56789","country":"IN"}"#)
            let known = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"98765 43210","country":"IN"}"#)
            #expect(unknown.status == .ok && known.status == .ok)
            let unknownKeys = try JSONSerialization.jsonObject(with: Data(buffer: unknown.body)) as? [String: Any]
            #expect(unknownKeys?.keys.sorted() == ["code_length", "expires_in", "phone_masked", "resend_after", "verification_id"])
            #expect(try await fixture.outboxMessages(count: 1).map(\.to) == [Self.phone], "no SMS to the unknown number")
            let guess = try await client.verify(try unknown.decoded(PhoneCodeSent.self).verificationID, "123456")
            #expect(guess.status == .badRequest, "a wrong guess looks the same for an unknown number")
        }
    }

    @Test func D_wrongCodesCountDownAndTheFifthBurnsTheCodeEvenForTheRightOne() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            let id = try await client.sendCode()
            let code = try #require(fixture.outboxMessages().last?.code)
            let wrong = code == "000000" ? "111111" : "000000"
            for left in [4, 3, 2, 1] {
                let response = try await client.verify(id, wrong)
                #expect(response.status == .badRequest)
                #expect(try response.decoded(CodeErrorBody.self) == CodeErrorBody(
                    error: "invalid_code", message: "Incorrect code. \(left) \(left == 1 ? "attempt" : "attempts") left.", attempts_left: left
                ))
            }
            let fifth = try await client.verify(id, wrong)
            #expect(try fifth.status == .tooManyRequests && (fifth.decoded(CodeErrorBody.self)).error == "code_attempts_exceeded")
            let right = try await client.verify(id, code)
            #expect(right.status == .tooManyRequests, "a burned code stays burned")
        }
    }

    @Test func E_parallelGuessesGetNoMoreThanFiveTries() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture), mode: .live) { client in
            let id = try await client.sendCode()
            let code = try #require(fixture.outboxMessages().last?.code)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for guess in 0..<30 {
                    let attempt = String(format: "%06d", (Int(code)! + 1 + guess) % 1_000_000)
                    group.addTask { try await client.verify(id, attempt).status }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .badRequest }.count == 4)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 26)
        }
    }

    @Test func F_aCodeExpiresAfterFiveMinutes() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            let id = try await client.sendCode()
            let code = try #require(fixture.outboxMessages().last?.code)
            fixture.clock.advance(by: 301)
            let late = try await client.verify(id, code)
            #expect(try late.status == .gone && (late.decoded(ErrorBody.self)).error == "code_expired")
        }
    }

    @Test func G_resendWaitsSixtySecondsAndTheNewCodeReplacesTheOld() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            let first = try await client.sendCode()
            let oldCode = try #require(fixture.outboxMessages().last?.code)
            let early = try await client.postJSON("/api/auth/phone/otp/resend", #"{"verification_id":"\#(first)"}"#)
            #expect(early.status == .tooManyRequests && early.headers[.retryAfter] == "60")
            fixture.clock.advance(by: 60)
            let resent = try await client.postJSON("/api/auth/phone/otp/resend", #"{"verification_id":"\#(first)"}"#)
            #expect(resent.status == .ok)
            let second = try resent.decoded(PhoneCodeSent.self).verificationID
            #expect(second != first)
            let old = try await client.verify(first, oldCode)
            #expect(old.status == .gone, "one live code per phone")
            let newCode = try #require(fixture.outboxMessages().last?.code)
            let status = try await client.verify(second, newCode).status
            #expect(status == .ok)
        }
    }

    /// A 429's code and its `retry_after`.
    struct WaitBody: Decodable {
        let error: String
        let retry_after: Int // swiftlint:disable:this identifier_name
    }

    @Test func I26_theResendWindowAndARealLimitAreTwoCodesWithTheirRealWaits() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test({ Self.phoneOn(fixture)(&$0); $0.phone?.requestsPerAddress = 1000 }) { client in
            _ = try await client.sendCode()
            fixture.clock.advance(by: 27)
            let early = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            let window = try early.decoded(WaitBody.self)
            #expect(early.status == .tooManyRequests && early.headers[.retryAfter] == "33")
            #expect(window.error == "resend_too_soon" && window.retry_after == 33, "the resend window is not a limit")
            for _ in 1...2 {
                fixture.clock.advance(by: 61)
                _ = try await client.sendCode()
            }
            fixture.clock.advance(by: 61)
            let limited = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            let limit = try limited.decoded(WaitBody.self)
            #expect(limited.status == .tooManyRequests && limit.error == "rate_limited")
            #expect(limit.retry_after == 15 * 60 - (27 + 3 * 61), "the per-phone window's real wait")
        }
    }

    @Test func H_aPhoneGetsThreeCodesPerFifteenMinutesAndTenPerDay() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test({ Self.phoneOn(fixture)(&$0); $0.phone?.requestsPerAddress = 1000 }) { client in
            for _ in 1...3 {
                _ = try await client.sendCode()
                fixture.clock.advance(by: 61)
            }
            let fourth = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            #expect(fourth.status == .tooManyRequests)
            let wait = try #require(fourth.headers[.retryAfter].flatMap { Int($0) })
            #expect(wait == 15 * 60 - 3 * 61)
            var sentToday = 3
            while sentToday < 10 {
                fixture.clock.advance(by: 15 * 60)
                for _ in 1...3 where sentToday < 10 {
                    _ = try await client.sendCode()
                    sentToday += 1
                    fixture.clock.advance(by: 61)
                }
            }
            fixture.clock.advance(by: 15 * 60)
            let eleventh = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            #expect(eleventh.status == .tooManyRequests, "ten a day")
            #expect(try fixture.outboxMessages().count == 10)
        }
    }

    @Test func I_anAddressGetsTenSendsOrAccountChecksPerFifteenMinutes() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            for index in 0..<10 {
                let number = "+9191234567\(String(format: "%02d", index))"
                let status = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"\#(number)"}"#).status
                #expect(status == .notFound, "account checks count")
            }
            let known = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            #expect(try known.status == .tooManyRequests && (known.decoded(ErrorBody.self)).error == "rate_limited")
            #expect(try fixture.outboxMessages().isEmpty)
        }
    }

    @Test func J_theHourlySMSBudgetAndAMissingSenderAnswer503NotTheUsersFault() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test({ Self.phoneOn(fixture)(&$0); $0.phone?.smsPerHour = 0 }) { client in
            let response = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            #expect(response.status == .serviceUnavailable && response.headers[.retryAfter] != nil)
            #expect(try (response.decoded(ErrorBody.self)).error == "sms_unavailable")
        }
        try await fixture.test({ Self.phoneOn(fixture)(&$0); $0.sms = .none }) { client in
            let response = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            #expect(response.status == .serviceUnavailable)
            let retry = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
            #expect(retry.status == .serviceUnavailable, "a failed send leaves no code that would hold back a retry")
        }
    }

    @Test func K_registrationCreatesTheAccountAndSignsIn() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test(Self.phoneOn(fixture)) { client in
            let taken = try await client.postJSON("/api/auth/phone/register", #"{"name":"Asha Rao","phone":"+919876543210"}"#)
            #expect(try taken.status == .conflict && (taken.decoded(ErrorBody.self)).error == "phone_taken")
            let sent = try await client.postJSON("/api/auth/phone/register", #"{"name":"Ravi Kumar","phone":"91234 56789","country":"IN"}"#)
            #expect(sent.status == .ok)
            let code = try #require(fixture.outboxMessages().last?.code)
            let verified = try await client.verify(try sent.decoded(PhoneCodeSent.self).verificationID, code)
            #expect(verified.status == .ok)
            let grant = try verified.decoded(TokenGrant.self)
            #expect(grant.user.firstName == "Ravi" && grant.user.lastName == "Kumar")
            fixture.clock.advance(by: 61)
            let signIn = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919123456789"}"#)
            #expect(signIn.status == .ok, "the new account signs in by phone")
        }
    }

    @Test func L_countriesListTheAllowedRegionsWithWhatTheScreenNeeds() async throws {
        let fixture = try await Self.fixture()
        try await fixture.test({ Self.phoneOn(fixture)(&$0); $0.phone?.allowedRegions = ["IN", "GB"] }) { client in
            let response = try await client.execute(uri: "/api/auth/phone/countries", method: .get)
            #expect(response.status == .ok)
            struct Countries: Decodable { let countries: [PhoneCountry]; let `default`: String }
            let body = try response.decoded(Countries.self)
            #expect(body.default == "IN" && body.countries.map(\.code) == ["IN", "GB"])
            #expect(body.countries[0] == PhoneCountry.make("IN") && body.countries[0].dialCode == "+91")
            let hindi = try await client.execute(uri: "/api/auth/phone/countries?lang=hi", method: .get)
            #expect(try hindi.decoded(Countries.self).countries[0].name == "भारत")
        }
        try await fixture.test { client in
            let status = try await client.execute(uri: "/api/auth/phone/countries", method: .get).status
            #expect(status == .notFound, "no phone routes unless phone sign-in is on")
        }
    }
}

/// An error body with the tries left on a code.
struct CodeErrorBody: Decodable, Equatable {
    let error: String
    let message: String
    let attempts_left: Int?
}

/// One line of the dev outbox.
struct OutboxLine: Decodable {
    let to: String
    let body: String
    let code: String
}

extension Fixture {
    var outbox: String { directory.appendingPathComponent("sms-outbox.jsonl").path }

    func outboxMessages() throws -> [OutboxLine] {
        try OutboxFile.lines(outbox).map { try JSONDecoder().decode(OutboxLine.self, from: Data($0.utf8)) }
    }

    /// The outbox once it holds `count` messages (a silent check's messages are sent off the
    /// request path, just after the answer), or as it is after 5 s.
    func outboxMessages(count: Int) async throws -> [OutboxLine] {
        for _ in 0..<250 where try outboxMessages().count < count {
            try await Task.sleep(for: .milliseconds(20))
        }
        return try outboxMessages()
    }
}

extension TestClientProtocol {
    func verify(_ verificationID: String, _ code: String) async throws -> TestResponse {
        try await postJSON("/api/auth/phone/verify", #"{"verification_id":"\#(verificationID)","code":"\#(code)"}"#)
    }

    /// Sends a code to the fixture's phone and returns its verification id.
    func sendCode() async throws -> String {
        let response = try await postJSON("/api/auth/phone/otp", #"{"phone":"+919876543210"}"#)
        try #require(response.status == .ok)
        return try response.decoded(PhoneCodeSent.self).verificationID
    }
}
