import Foundation
import GatehouseHTTP
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing
import WebSurface

/// Issue 20's first correction: an app's `signIn.methods` gate every surface. An app that lists
/// only phone and Google (UrbanNest) refuses the password on REST, GraphQL, Supabase Auth and
/// the web form with one error, before anything is counted or hashed.
@Suite struct SignInMethodGateTests {
    static func phoneAndGoogleOnly(_ configuration: inout GatehouseConfiguration) {
        configuration.signInMethods = SignInMethods(methods: [.phone, .google])
        configuration.supabaseAnonKey = "anon"
    }

    @Test func I20_aPasswordIsRefusedOnEverySurfaceWhenTheAppDoesNotOfferEmail() async throws {
        let fixture = try await Fixture()
        try await fixture.test(Self.phoneAndGoogleOnly) { client in
            let rest = try await client.login()
            #expect(rest.status == .forbidden)
            #expect(try rest.decoded(ErrorBody.self) == ErrorBody(error: "sign_in_method_not_offered", message: "This app does not offer sign-in with email"))

            let query = #"{"query":"mutation { login(data: {email: \"\#(Fixture.email)\", password: \"\#(Fixture.password)\"}) { token } }"}"#
            let graphQL = try await client.postJSON("/graphql", query)
            #expect(String(buffer: graphQL.body).contains(#""code":"SIGN_IN_METHOD_NOT_OFFERED""#))

            let body = #"{"email":"\#(Fixture.email)","password":"\#(Fixture.password)"}"#
            let supabase = try await client.postJSON("/auth/v1/token?grant_type=password", body, headers: [HTTPField.Name("apikey")!: "anon"])
            #expect(supabase.status == .badRequest)
            #expect(String(buffer: supabase.body).contains(#""error_code":"email_provider_disabled""#))
        }
        // Refused before the limiter: nothing was counted against the account or the address.
        #expect(try await fixture.storedText(["throttles"]).isEmpty == true)
    }

    @Test func I20_theSameServerWithEmailListedSignsIn() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ Self.phoneAndGoogleOnly(&$0); $0.signInMethods = SignInMethods(methods: [.phone, .email]) }) { client in
            let status = try await client.login().status
            #expect(status == .ok)
        }
    }

    @Test func I20_phoneIsRefusedWithTheSameErrorWhenTheAppDoesNotOfferIt() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            // The REST phone routes are not even served; GraphQL's schema has the mutation, and refuses it.
            #expect(try await client.postJSON("/api/auth/phone/verify", #"{"verification_id":"ghv_x","code":"123456"}"#).status == .notFound)
            let query = #"{"query":"mutation { verifyPhoneCode(data: { verificationId: \"ghv_x\", code: \"123456\" }) { token } }"}"#
            let graphQL = try await client.postJSON("/graphql", query)
            #expect(String(buffer: graphQL.body).contains(#""code":"SIGN_IN_METHOD_NOT_OFFERED""#))
            #expect(String(buffer: graphQL.body).contains("This app does not offer sign-in with phone"))
        }
    }

    @Test func I20_supabasePhoneRoutesAnswerGoTruesPhoneProviderDisabledWhenPhoneIsNotOffered() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ $0.supabaseAnonKey = "anon" }) { client in
            let key: HTTPFields = [HTTPField.Name("apikey")!: "anon"]
            for (path, body) in [
                ("/auth/v1/otp", #"{"phone":"+919876543210"}"#),
                ("/auth/v1/verify", #"{"type":"sms","phone":"+919876543210","token":"123456"}"#),
            ] {
                let response = try await client.postJSON(path, body, headers: key)
                #expect(response.status == .badRequest, "\(path)")
                #expect(String(buffer: response.body) == #"{"code":400,"error_code":"phone_provider_disabled","msg":"Phone logins are disabled"}"#)
            }
        }
    }
}
