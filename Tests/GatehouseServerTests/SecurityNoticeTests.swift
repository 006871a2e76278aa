import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 39's security notices: each change to how an account signs in is mailed to its owner,
/// after the answer, with "This wasn't me" to the reset flow and no secret.
@Suite struct SecurityNoticeTests {
    @Test func SN01_aPasswordChangeAndAResetEachMailTheOwnerANoticeWithThisWasntMe() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let grant = try await client.grant()
            let changed = try await client.postJSON(
                "/api/auth/password", #"{"current_password":"\#(Fixture.password)","password":"another fine passphrase"}"#,
                headers: [.authorization: "Bearer \(grant.accessToken)"]
            )
            #expect(changed.status == .noContent)
            let notice = try #require(try await fixture.mails(count: 1).first)
            #expect(notice.to == Fixture.email && notice.action == "password_changed_notification")
            #expect(notice.subject == "Your Peated password was changed")
            #expect(notice.link == "http://127.0.0.1:0/forgot-password" && notice.code == nil)
            #expect(notice.text.contains("This wasn't me: http://127.0.0.1:0/forgot-password") && notice.html.contains("This wasn&#39;t me"))
            #expect(notice.text.contains("We send this to keep your Peated account safe."))
            _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            let code = try #require(try await fixture.mails(count: 2).last?.code)
            let reset = try await client.postJSON(
                "/api/auth/password/reset", #"{"email":"\#(Fixture.email)","code":"\#(code)","password":"a third fine passphrase"}"#
            )
            #expect(reset.status == .ok)
            let resetNotice = try #require(try await fixture.mails(count: 3).last)
            #expect(resetNotice.action == "password_reset_notification" && resetNotice.subject == "Your Peated password was reset")
        }
    }

    @Test func SN02_aSecondFactorAddedAndRemovedEachMailANotice() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ configuration in
            EmailAccountTests.accountsOn(fixture)(&configuration)
            configuration.mfa = MFAPolicy()
        }) { client in
            let grant = try await client.grant()
            let bearer: HTTPFields = [.authorization: "Bearer \(grant.accessToken)"]
            let enrolled = try await client.postJSON("/api/auth/mfa/factors", #"{"friendly_name":"Phone"}"#, headers: bearer)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: enrolled.body)) as? [String: Any])
            let secret = try #require(body["secret"] as? String)
            let id = try #require((body["factor"] as? [String: Any])?["id"] as? String)
            let totp = TOTP(secret: try #require(Base32.decode(secret)))
            let verified = try await client.postJSON(
                "/api/auth/mfa/factors/\(id)/verify", #"{"code":"\#(totp.code(forStep: totp.step(at: fixture.clock.now)))"}"#, headers: bearer
            )
            #expect(verified.status == .ok, "\(String(buffer: verified.body))")
            let added = try #require(try await fixture.mails(count: 1).first)
            #expect(added.action == "mfa_factor_enrolled_notification")
            #expect(added.subject == "Two-step verification was turned on for your Peated account")
            let aal2 = try verified.decoded(TokenGrant.self).accessToken
            let removed = try await client.execute(uri: "/api/auth/mfa/factors/\(id)", method: .delete, headers: [.authorization: "Bearer \(aal2)"])
            #expect(removed.status == .noContent)
            #expect(try await fixture.mails(count: 2).last?.action == "mfa_factor_unenrolled_notification")
        }
    }

    @Test func SN03_newDeviceMailsASignInFromADeviceAndAddressNotSeenOnlyWhereTheAppAsks() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ configuration in
            EmailAccountTests.accountsOn(fixture)(&configuration)
            AbuseProtectionTests.behindProxy(&configuration)
            configuration.notifications = NotificationOptions(newDevice: true)
        }, mode: .live) { client in
            fixture.clock.advance(by: 3600)
            let iPhone: HTTPFields = [.xForwardedFor: "203.0.113.9", .userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"]
            #expect(try await client.login(headers: iPhone).status == .ok)
            let notice = try #require(try await fixture.mails(count: 1).first)
            #expect(notice.action == "new_sign_in_notification" && notice.subject == "New sign-in to your Peated account")
            #expect(notice.text.contains("iPhone") && notice.text.contains("203.0.113.9") && notice.link == "http://127.0.0.1:0/forgot-password")
            #expect(try await client.login(headers: iPhone).status == .ok, "the same device and address again")
            var elsewhere = iPhone
            elsewhere[.xForwardedFor] = "198.51.100.20"
            #expect(try await client.login(headers: elsewhere).status == .ok)
            let mails = try await fixture.mails(count: 2)
            try await Task.sleep(for: .milliseconds(200))
            #expect(try fixture.mails().count == 2 && mails.last?.text.contains("198.51.100.20") == true, "one notice per new device and address")
        }
        let quiet = try await Fixture(argon2: Fixture.cheap)
        try await quiet.test(EmailAccountTests.accountsOn(quiet)) { client in
            quiet.clock.advance(by: 3600)
            #expect(try await client.login().status == .ok)
            try await Task.sleep(for: .milliseconds(200))
            #expect(try quiet.mails().isEmpty, "off unless the app file asks")
        }
    }

    @Test func SN04_aPasswordSetThroughTheAdminAPITellsTheOwner() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ configuration in
            EmailAccountTests.accountsOn(fixture)(&configuration)
            configuration.supabaseAnonKey = SupabaseRouteTests.anonKey
            configuration.serviceRoleKey = AdminAPITests.serviceRoleKey
        }) { client in
            let listed = try await client.execute(uri: "/auth/v1/admin/users", method: .get, headers: AdminAPITests.admin)
            let users = try #require(try GraphQLRouteTests.json(listed)["users"] as? [[String: Any]])
            let id = try #require(users.first?["id"] as? String)
            var headers = AdminAPITests.admin
            headers[.contentType] = "application/json"
            let updated = try await client.execute(
                uri: "/auth/v1/admin/users/\(id)", method: .put, headers: headers, body: ByteBuffer(string: #"{"password":"an operator's passphrase"}"#)
            )
            #expect(updated.status == .ok)
            let notice = try #require(try await fixture.mails(count: 1).first)
            #expect(notice.to == Fixture.email && notice.action == "password_changed_notification")
            let audit = try await fixture.storedAudit(containing: ["admin.set_password", "admin.update"])
            #expect(audit.contains("admin.set_password") && audit.contains("admin.update"))
        }
    }
}
