import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Issue 24's admin API: Supabase's `/auth/v1/admin/users`, opened only by the service role
/// key, sharing the CLI's operations; bans block sign-in and refresh until they end.
@Suite struct AdminAPITests {
    static let serviceRoleKey = "service-role-key-0123456789abcdef0123456789"
    static let admin: HTTPFields = [.authorization: "Bearer \(serviceRoleKey)"]

    static func configure(_ configuration: inout GatehouseConfiguration) {
        configuration.serviceRoleKey = serviceRoleKey
        configuration.supabaseAnonKey = SupabaseRouteTests.anonKey
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, headers: HTTPFields = admin
    ) async throws -> TestResponse {
        var headers = headers
        if body != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @Test func I24_onlyTheServiceRoleKeyOpensTheAdminAPI() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.configure) { client in
            let none = try await Self.send(client, .get, "/auth/v1/admin/users", headers: [:])
            #expect(try none.status == .unauthorized && (Self.json(none))["error_code"] as? String == "no_authorization")
            let user = try await client.grant()
            for key in [SupabaseRouteTests.anonKey, user.accessToken, Self.serviceRoleKey + "x", String(Self.serviceRoleKey.dropLast())] {
                let refused = try await Self.send(client, .get, "/auth/v1/admin/users", headers: [.authorization: "Bearer \(key)"])
                #expect(try refused.status == .forbidden && (Self.json(refused))["error_code"] as? String == "not_admin")
            }
        }
        // Without a key configured there is no admin API at all.
        try await fixture.test { client in
            let response = try await Self.send(client, .get, "/auth/v1/admin/users")
            #expect(response.status == .notFound)
        }
    }

    @Test func I24_createGetListUpdateAndDeleteAsGoTrueDoes() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.configure) { client in
            // Created after the fixture's account, so a page of one holds each in turn.
            fixture.clock.advance(by: 1)
            let created = try await Self.send(client, .post, "/auth/v1/admin/users", #"""
                {"email":"Ann@Example.com","password":"a fine long passphrase","email_confirm":true,"user_metadata":{"full_name":"Ann Lee"}}
                """#)
            #expect(created.status == .ok)
            let ann = try Self.json(created)
            let id = try #require(ann["id"] as? String)
            #expect(ann["email"] as? String == "ann@example.com" && ann["email_confirmed_at"] != nil && ann["banned_until"] == nil)
            #expect((ann["user_metadata"] as? [String: Any])?["full_name"] as? String == "Ann Lee")
            #expect(try await client.grant("ann@example.com", "a fine long passphrase").user.name == "Ann Lee")

            let taken = try await Self.send(client, .post, "/auth/v1/admin/users", #"{"email":"ann@example.com","password":"another passphrase"}"#)
            #expect(try taken.status == .unprocessableContent && (Self.json(taken))["error_code"] as? String == "email_exists")
            let weak = try await Self.send(client, .post, "/auth/v1/admin/users", #"{"email":"bo@example.com","password":"short"}"#)
            #expect(weak.status == .badRequest)

            let page = try await Self.send(client, .get, "/auth/v1/admin/users?page=2&per_page=1")
            #expect(page.headers[.init("X-Total-Count")!] == "2")
            #expect(try (Self.json(page)["users"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect(try await Self.send(client, .get, "/auth/v1/admin/users?per_page=0").status == .badRequest)

            let updated = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"email":"ann.lee@example.com","password":"a newer long passphrase"}"#)
            #expect(try updated.status == .ok && (Self.json(updated))["email"] as? String == "ann.lee@example.com")
            #expect(try await client.login("ann.lee@example.com", "a newer long passphrase").status == .ok)
            #expect(try await client.login("ann@example.com", "a fine long passphrase").status == .unauthorized)

            let fetched = try await Self.send(client, .get, "/auth/v1/admin/users/\(id)")
            #expect(try (Self.json(fetched))["email"] as? String == "ann.lee@example.com")
            #expect(try await Self.send(client, .delete, "/auth/v1/admin/users/\(id)").status == .ok)
            let gone = try await Self.send(client, .get, "/auth/v1/admin/users/\(id)")
            #expect(try gone.status == .notFound && (Self.json(gone))["error_code"] as? String == "user_not_found")
        }
        let actions = try await AuditLogTests.entries(fixture, AuditQuery(types: ["admin."]))
        #expect(actions.map(\.type) == ["admin.create", "admin.set_password", "admin.update", "admin.delete"], "a new password is its own act")
        #expect(actions.allSatisfy { $0.actor == "service_role" })
    }

    @Test func I24_aBanBlocksSignInAndRefreshUntilItEndsOrIsLifted() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.configure) { client in
            let before = try await client.grant()
            let id = before.user.id
            let banned = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"ban_duration":"1h30m"}"#)
            let until = try #require((try Self.json(banned))["banned_until"] as? String)
            #expect(try Date(until, strategy: .iso8601) == fixture.clock.now.addingTimeInterval(5400).rounded)
            #expect(try await client.me(before.accessToken).status == .unauthorized)
            #expect(try await client.refresh(before.refreshToken).status != .ok)
            #expect(try await client.login().status == .forbidden)
            let goTrue = try await SupabaseRouteTests.token(client, grant: "password", #"{"email":"user@example.com","password":"password123"}"#)
            #expect(try (Self.json(goTrue))["error_code"] as? String == "user_banned")

            fixture.clock.advance(by: 5401)
            #expect(try await client.login().status == .ok)
            _ = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"ban_duration":"24h"}"#)
            #expect(try await client.login().status == .forbidden)
            let lifted = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"ban_duration":"none"}"#)
            #expect(try (Self.json(lifted))["banned_until"] == nil)
            #expect(try await client.login().status == .ok)
            let nonsense = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"ban_duration":"forever"}"#)
            #expect(nonsense.status == .badRequest)
        }
        let ended = try await AuditLogTests.entries(fixture, AuditQuery(types: ["session.ended"]))
        #expect(ended.contains { $0.details["reason"] == "banned" })
    }

    /// Issue 35, point 1: lock and ban share the account's lock columns, and once neither may
    /// undo the other: a lock after any ban (even an ended one) holds, a ban on a locked account
    /// does not open it when it ends, and unlocking lifts both.
    @Test func S1_aLockHoldsAfterAnyBanAndABanNeverShortensALock() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.configure) { client in
            let id = try await client.grant().user.id
            _ = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"ban_duration":"2s"}"#)
            fixture.clock.advance(by: 3)
            #expect(try await client.login().status == .ok)
            try await fixture.withAdministration { try await $0.setLocked(true, email: Fixture.email) }
            #expect(try await client.login().status == .forbidden)
            fixture.clock.advance(by: 86400)
            #expect(try await client.login().status == .forbidden)

            let banned = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"ban_duration":"2s"}"#)
            #expect(banned.status == .ok)
            fixture.clock.advance(by: 3)
            #expect(try await client.login().status == .forbidden)

            try await fixture.withAdministration { try await $0.setLocked(false, email: Fixture.email) }
            #expect(try await client.login().status == .ok)
            _ = try await Self.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"ban_duration":"1h"}"#)
            try await fixture.withAdministration { try await $0.setLocked(false, email: Fixture.email) }
            #expect(try await client.login().status == .ok)
        }
    }

    @Test(arguments: [
        ("24h", 86400.0), ("1h30m", 5400), ("90s", 90), ("1.5h", 5400), ("500ms", 0.5), ("876000h", BanDuration.longest),
    ])
    func I24_banDurationsReadAsGoDoes(text: String, seconds: Double) {
        #expect(BanDuration(text) == .seconds(seconds))
    }

    @Test(arguments: ["", "0s", "-1h", "1d", "h", "1h 30m", "876001h", "1e9h", String(repeating: "1", count: 50) + "s"])
    func I24_badBanDurationsAreRefused(text: String) {
        #expect(BanDuration(text) == nil)
    }
}

extension Date {
    /// Whole seconds, as ISO 8601 without fractions writes them.
    fileprivate var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
