import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
@testable import GatehouseServer
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import LoginCore
import Testing

/// Issue 39's guest accounts on every surface, through the real router.
@Suite struct GuestAccountRouteTests {
    static func guestsOn(_ configuration: inout GatehouseConfiguration) {
        configuration.signInMethods = SignInMethods(methods: [.email, .anonymous])
        configuration.supabaseAnonKey = SupabaseRouteTests.anonKey
    }

    /// The claims of an access token, read without checking (the server checked them).
    static func claims(_ token: String) throws -> [String: Any] {
        var payload = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        let data = try #require(Data(base64Encoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func GA01_restMakesAGuestWhoseTokenSaysSoAndAPasskeyKeepsTheAccountWithItsID() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.guestsOn) { client in
            let made = try await client.postJSON("/api/auth/anonymous", "{}")
            #expect(made.status == .ok, "\(String(buffer: made.body))")
            let guest = try made.decoded(TokenGrant.self)
            #expect(try Self.claims(guest.accessToken)["is_anonymous"] as? Bool == true)
            #expect(guest.user.email.isEmpty)
            let authenticator = SoftwareAuthenticator(origin: PasskeyRouteTests.origin)
            #expect(try await client.registerPasskey(authenticator, token: guest.accessToken).status == .created)
            let kept = try await client.signInWithPasskey(authenticator)
            #expect(kept.status == .ok)
            let signedIn = try kept.decoded(TokenGrant.self)
            #expect(signedIn.user.id == guest.user.id, "the same account, so the app's data stays attached")
            #expect(try Self.claims(signedIn.accessToken)["is_anonymous"] == nil)
        }
    }

    @Test func GA02_supabaseSignUpWithNeitherEmailNorPhoneIsSignInAnonymously() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.guestsOn) { client in
            let made = try await client.postJSON(
                "/auth/v1/signup", #"{"data":{},"gotrue_meta_security":{"captcha_token":null}}"#, headers: SupabaseRouteTests.key
            )
            #expect(made.status == .ok, "\(String(buffer: made.body))")
            let session = try #require(try JSONSerialization.jsonObject(with: Data(buffer: made.body)) as? [String: Any])
            let user = try #require(session["user"] as? [String: Any])
            #expect(user["is_anonymous"] as? Bool == true && (user["identities"] as? [Any])?.isEmpty == true)
            #expect((user["app_metadata"] as? [String: Any])?["provider"] as? String == "anonymous")
            let token = try #require(session["access_token"] as? String)
            #expect(try Self.claims(token)["is_anonymous"] as? Bool == true)
        }
    }

    @Test func GA03_graphQLMakesAGuestAndAnAppWithoutAnonymousRefusesEverywhere() async throws {
        try await Fixture(argon2: Fixture.cheap).test(Self.guestsOn) { client in
            let made = try await client.postJSON("/graphql", try GraphQLRouteTests.body("mutation { signInAnonymously { token user { id } } }"))
            let payload = (try GraphQLRouteTests.json(made)["data"] as? [String: Any])?["signInAnonymously"] as? [String: Any]
            #expect(payload?["token"] is String)
        }
        try await Fixture(argon2: Fixture.cheap).test({ $0.supabaseAnonKey = SupabaseRouteTests.anonKey }) { client in
            let rest = try await client.postJSON("/api/auth/anonymous", "{}")
            #expect(rest.status == .forbidden)
            #expect(try rest.decoded(ErrorBody.self).error == "sign_in_method_not_offered")
            let goTrue = try await client.postJSON("/auth/v1/signup", #"{"data":{}}"#, headers: SupabaseRouteTests.key)
            #expect(goTrue.status == .unprocessableContent && String(buffer: goTrue.body).contains("anonymous_provider_disabled"))
        }
    }

    @Test func GA04_theServersHourlyPurgeRemovesGuestsUnusedForTheRetentionPeriodAndNoOtherAccount() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        var configuration = fixture.configuration
        Self.guestsOn(&configuration)
        let logger = Logger(label: "test")
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: logger) { storage in
            let services = try await buildRouterAndServices(configuration, repository: storage.repository, logger: logger).services
            let guests = try #require(services.guests, "an app that offers guests has their service")
            let client = ClientInfo(address: "192.0.2.1")
            let old = try await services.pipeline.signIn(.anonymous, from: client).grant.user.id
            fixture.clock.advance(by: 31 * 86400)
            // Making a guest never removes another: only the purge does, off the request path.
            let recent = try await services.pipeline.signIn(.anonymous, from: client).grant.user.id
            #expect(try await storage.repository.user(id: old) != nil)
            await AccountPurge(deletion: nil, guests: guests, logger: logger).pass()
            #expect(try await storage.repository.user(id: old) == nil, "unused for 31 days, past the 30 kept")
            #expect(try await storage.repository.user(id: recent) != nil)
            let owner = try await storage.repository.passwordAccount(provider: .email, subject: Fixture.email)
            #expect(owner != nil, "an account with a way in is never a guest")
        }
        configuration.signInMethods = SignInMethods(methods: [.email])
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: logger) { storage in
            let services = try await buildRouterAndServices(configuration, repository: storage.repository, logger: logger).services
            #expect(services.guests == nil, "an app without guests composes no guest service")
        }
    }
}
