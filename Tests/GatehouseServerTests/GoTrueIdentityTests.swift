import Foundation
import GatehouseCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 20's second correction: GoTrue's user object reports each account's real identities
/// and verification times, not a hard-coded `email` provider confirmed at creation.
@Suite struct GoTrueIdentityTests {
    /// `app_metadata` as provider and providers.
    static func metadata(_ user: [String: Any]) -> (String?, [String]?) {
        let metadata = user["app_metadata"] as? [String: Any]
        return (metadata?["provider"] as? String, metadata?["providers"] as? [String])
    }

    static func verified(_ identity: [String: Any]?, _ key: String) -> Bool? {
        (identity?["identity_data"] as? [String: Any])?[key] as? Bool
    }

    static func user(from response: TestResponse) throws -> [String: Any] {
        let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        return try #require((body["user"] as? [String: Any]) ?? body)
    }

    @Test func I20_aPasswordAccountIsItsEmailIdentityConfirmedWhenItWasVerified() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ $0.supabaseAnonKey = SupabaseRouteTests.anonKey }) { client in
            let session = try await SupabaseRouteTests.token(client, grant: "password", #"{"email":"user@example.com","password":"password123"}"#)
            let user = try Self.user(from: session)
            #expect(Self.metadata(user) == ("email", ["email"]))
            #expect(user["email_confirmed_at"] is String && user["confirmed_at"] is String)
            #expect(user["phone"] as? String == "" && user["phone_confirmed_at"] == nil)
            let identities = try #require(user["identities"] as? [[String: Any]])
            #expect(identities.count == 1)
            #expect(identities.first?["provider"] as? String == "email")
            #expect(identities.first?["user_id"] as? String == user["id"] as? String)
            #expect(Self.verified(identities.first, "email_verified") == true)
            // GET /user says the same.
            let token = try #require(try JSONSerialization.jsonObject(with: Data(buffer: session.body)) as? [String: Any])["access_token"]
            let fetched = try Self.user(from: try await client.execute(uri: "/auth/v1/user", method: .get, headers: SupabaseRouteTests.bearer(token)))
            #expect((fetched["identities"] as? [[String: Any]])?.count == 1 && fetched["email_confirmed_at"] as? String == user["email_confirmed_at"] as? String)
        }
    }

    @Test func I20_anEmailNeverVerifiedHasNoConfirmationTime() async throws {
        let fixture = try await Fixture()
        try await fixture.withAdministration {
            try await $0.create(email: "unverified@example.com", name: .init(full: "Una Verified"), password: "password123", emailVerified: false)
        }
        try await fixture.test({ $0.supabaseAnonKey = SupabaseRouteTests.anonKey }) { client in
            let session = try await SupabaseRouteTests.token(client, grant: "password", #"{"email":"unverified@example.com","password":"password123"}"#)
            let user = try Self.user(from: session)
            #expect(user["email_confirmed_at"] == nil && user["confirmed_at"] == nil)
            let identity = try #require((user["identities"] as? [[String: Any]])?.first)
            #expect(Self.verified(identity, "email_verified") == false)
        }
    }

    @Test func I20_aPhoneAccountIsItsPhoneIdentity() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test({ PhoneSignInTests.phoneOn(fixture)(&$0); $0.supabaseAnonKey = SupabaseRouteTests.anonKey }) { client in
            _ = try await client.sendCode()
            let code = try #require(try fixture.outboxMessages().last?.code)
            let verified = try await client.postJSON(
                "/auth/v1/verify", #"{"type":"sms","phone":"+919876543210","token":"\#(code)"}"#, headers: SupabaseRouteTests.key
            )
            #expect(verified.status == .ok)
            let user = try Self.user(from: verified)
            #expect(user["phone"] as? String == "919876543210" && user["phone_confirmed_at"] is String)
            #expect(user["email"] as? String == "" && user["email_confirmed_at"] == nil)
            #expect(Self.metadata(user) == ("phone", ["phone"]))
            let identity = try #require((user["identities"] as? [[String: Any]])?.first)
            #expect(identity["provider"] as? String == "phone" && identity["id"] as? String == "+919876543210")
            #expect(Self.verified(identity, "phone_verified") == true)
        }
    }
}
