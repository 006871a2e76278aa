import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 39: a signed-in account adds (or changes) its phone with an SMS code; a guest keeps
/// its account this way, over REST and GoTrue's `PUT /user {"phone"}` + `verify type=phone_change`.
@Suite struct AddPhoneRouteTests {
    static func phoneAndGuestsOn(_ fixture: Fixture) -> (inout GatehouseConfiguration) -> Void {
        { configuration in
            PhoneSignInTests.phoneOn(fixture)(&configuration)
            GuestAccountRouteTests.guestsOn(&configuration)
            configuration.signInMethods = SignInMethods(methods: [.email, .phone, .anonymous])
        }
    }

    @Test func AP01_aGuestAddsAPhoneOverRESTAndSignsInWithItToTheSameAccount() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(Self.phoneAndGuestsOn(fixture)) { client in
            let guest = try (try await client.postJSON("/api/auth/anonymous", "{}")).decoded(TokenGrant.self)
            let bearer: HTTPFields = [.authorization: "Bearer \(guest.accessToken)"]
            let sent = try await client.postJSON("/api/auth/phone/add", #"{"phone":"91234 56789","country":"IN"}"#, headers: bearer)
            #expect(sent.status == .ok, "\(String(buffer: sent.body))")
            let id = try sent.decoded(PhoneCodeSent.self).verificationID
            let code = try #require(try await fixture.outboxMessages(count: 1).last?.code)
            let signIn = try await client.verify(id, code)
            #expect(signIn.status == .gone, "an added phone's code never signs in")
            let second = try await client.postJSON("/api/auth/phone/otp/resend", #"{"verification_id":"\#(id)"}"#)
            let resent = try second.decoded(PhoneCodeSent.self).verificationID
            let fresh = try #require(try await fixture.outboxMessages(count: 2).last?.code)
            let wrong = try await client.postJSON("/api/auth/phone/add/verify", #"{"verification_id":"\#(resent)","code":"\#(fresh == "000000" ? "111111" : "000000")"}"#, headers: bearer)
            #expect(wrong.status == .unauthorized || wrong.status == .badRequest, "\(wrong.status)")
            let added = try await client.postJSON("/api/auth/phone/add/verify", #"{"verification_id":"\#(resent)","code":"\#(fresh)"}"#, headers: bearer)
            #expect(added.status == .ok, "\(String(buffer: added.body))")
            #expect(try added.decoded(SignedInUser.self).id == guest.user.id)
            // The number now signs in to the guest's account, which is a guest no more.
            let otp = try await client.postJSON("/api/auth/phone/otp", #"{"phone":"+919123456789"}"#)
            let login = try await client.verify(try otp.decoded(PhoneCodeSent.self).verificationID, try #require(try await fixture.outboxMessages(count: 3).last?.code))
            let grant = try login.decoded(TokenGrant.self)
            #expect(grant.user.id == guest.user.id)
            #expect(try GuestAccountRouteTests.claims(grant.accessToken)["is_anonymous"] == nil)
        }
    }

    @Test func AP02_goTruesUpdateUserPhoneAndVerifyPhoneChangeKeepAGuest() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(Self.phoneAndGuestsOn(fixture)) { client in
            let made = try await client.postJSON("/auth/v1/signup", "{}", headers: SupabaseRouteTests.key)
            let session = try GraphQLRouteTests.json(made)
            var headers = SupabaseRouteTests.bearer(session["access_token"])
            headers[.contentType] = "application/json"
            let updated = try await client.execute(uri: "/auth/v1/user", method: .put, headers: headers, body: ByteBuffer(string: #"{"phone":"919123456780"}"#))
            #expect(updated.status == .ok, "\(String(buffer: updated.body))")
            let code = try #require(try await fixture.outboxMessages(count: 1).last?.code)
            let verified = try await client.postJSON(
                "/auth/v1/verify", #"{"type":"phone_change","phone":"919123456780","token":"\#(code)"}"#, headers: SupabaseRouteTests.key
            )
            #expect(verified.status == .ok, "\(String(buffer: verified.body))")
            let user = try GraphQLRouteTests.json(verified)
            #expect(user["phone"] as? String == "919123456780" && user["is_anonymous"] as? Bool == false)
            #expect(user["id"] as? String == (session["user"] as? [String: Any])?["id"] as? String)
        }
    }

    @Test func AP03_aTakenNumberAnswersAlikeButItsCodeAddsNothingAndBadInputIs400() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(Self.phoneAndGuestsOn(fixture)) { client in
            let grant = try await client.grant()
            let bearer: HTTPFields = [.authorization: "Bearer \(grant.accessToken)"]
            let taken = try await client.postJSON("/api/auth/phone/add", #"{"phone":"\#(PhoneSignInTests.phone)"}"#, headers: bearer)
            #expect(taken.status == .ok, "a number another account has answers as a free one")
            let code = try #require(try await fixture.outboxMessages(count: 1).last?.code)
            let refused = try await client.postJSON(
                "/api/auth/phone/add/verify", #"{"verification_id":"\#(try taken.decoded(PhoneCodeSent.self).verificationID)","code":"\#(code)"}"#, headers: bearer
            )
            #expect(refused.status == .gone, "the number stays its owner's")
            for body in [#"{"phone":"hello"}"#, #"{}"#] {
                #expect(try await client.postJSON("/api/auth/phone/add", body, headers: bearer).status == .badRequest, "\(body)")
            }
            #expect(try await client.postJSON("/api/auth/phone/add", #"{"phone":"+919123456789"}"#).status == .unauthorized)
        }
    }

    @Test func AP04_graphQLAddsAPhoneToTheSignedInAccount() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(Self.phoneAndGuestsOn(fixture)) { client in
            let guest = try (try await client.postJSON("/api/auth/anonymous", "{}")).decoded(TokenGrant.self)
            let bearer: HTTPFields = [.authorization: "Bearer \(guest.accessToken)"]
            let sent = try await client.postJSON("/graphql", try GraphQLRouteTests.body(
                "mutation($p: String!) { addPhone(data: {phone: $p, country: \"IN\"}) { verificationId } }", ["p": "91234 56788"]
            ), headers: bearer)
            let id = try #require(((try GraphQLRouteTests.json(sent)["data"] as? [String: Any])?["addPhone"] as? [String: Any])?["verificationId"] as? String)
            let code = try #require(try await fixture.outboxMessages(count: 1).last?.code)
            let added = try await client.postJSON("/graphql", try GraphQLRouteTests.body(
                "mutation($i: String!, $c: String!) { verifyAddPhone(data: {verificationId: $i, code: $c}) { id } }", ["i": id, "c": code]
            ), headers: bearer)
            #expect(try GraphQLRouteTests.json(added)["data"] as? [String: [String: String]] == ["verifyAddPhone": ["id": guest.user.id]])
        }
    }
}
