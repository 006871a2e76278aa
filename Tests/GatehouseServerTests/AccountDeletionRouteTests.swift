import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 39's "delete my account" over REST, GraphQL and the web, through the real router.
@Suite struct AccountDeletionRouteTests {
    static func delete(_ client: some TestClientProtocol, _ token: String, _ body: String?) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if body != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: "/api/me", method: .delete, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    @Test func DA01_restDeletesWithThePasswordAndEveryTokenIsRefusedAtOnce() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let first = try await client.grant()
            let second = try await client.grant()
            let missing = try await Self.delete(client, first.accessToken, nil)
            #expect(missing.status == .badRequest)
            #expect(try missing.decoded(ErrorBody.self).message == "password is required")
            let wrong = try await Self.delete(client, first.accessToken, #"{"password":"not the password"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(try await client.me(second.accessToken).status == .ok, "nothing deleted")
            let deleted = try await Self.delete(client, first.accessToken, #"{"password":"\#(Fixture.password)"}"#)
            #expect(deleted.status == .noContent)
            for token in [first.accessToken, second.accessToken] { #expect(try await client.me(token).status == .unauthorized) }
            #expect(try await client.refresh(second.refreshToken).status == .unauthorized)
            #expect(try await client.login(Fixture.email, Fixture.password).status == .unauthorized)
            let mail = try #require(try await fixture.mails(count: 1).last)
            #expect(mail.to == Fixture.email && mail.action == "account_deleted" && mail.subject == "Your Peated account was deleted")
            let audit = try await fixture.storedAudit(containing: ["account.deleted"])
            #expect(audit.contains("account.deleted") && !audit.contains(Fixture.email), "audit rows stay, naming no address")
        }
    }

    @Test func DA02_graphQLDeletesTheSignedInAccount() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let grant = try await client.grant()
            let response = try await client.postJSON(
                "/graphql", try GraphQLRouteTests.body("mutation($p: String) { deleteAccount(password: $p) }", ["p": Fixture.password]),
                headers: [.authorization: "Bearer \(grant.accessToken)"]
            )
            #expect(try GraphQLRouteTests.json(response)["data"] as? [String: Bool] == ["deleteAccount": true])
            #expect(try await client.me(grant.accessToken).status == .unauthorized)
        }
    }

    @Test func DA03_homesConfirmationNamesWhatGoesAndItsButtonDeletesAndSignsOut() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let signedIn = try await EmailCodeRouteTests.form(client, "/login", "email=user%40example.com&password=\(Fixture.password)")
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("__Host-gatehouse-session=") })
            let session = String(cookie.split(separator: ";")[0])
            let home = try await client.execute(uri: "/home", method: .get, headers: [.cookie: session])
            #expect(String(buffer: home.body).contains(#"id="delete-account""#))
            let confirm = try await client.execute(uri: "/home/delete", method: .get, headers: [.cookie: session])
            let page = String(buffer: confirm.body)
            #expect(page.contains("Delete your account?") && page.contains("passkeys and two-step verification") && page.contains(#"name="password""#))
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "__Host-gatehouse-csrf=t0k3n; \(session)"]
            let wrong = try await client.execute(uri: "/home/delete", method: .post, headers: headers, body: ByteBuffer(string: "password=nope&csrf=t0k3n"))
            #expect(wrong.status == .unauthorized && String(buffer: wrong.body).contains("That password isn&#39;t right"))
            let done = try await client.execute(
                uri: "/home/delete", method: .post, headers: headers, body: ByteBuffer(string: "password=\(Fixture.password)&csrf=t0k3n")
            )
            #expect(done.status == .ok && String(buffer: done.body).contains("Your Peated account was deleted."))
            #expect(done.headers[values: .setCookie].contains { $0.hasPrefix("__Host-gatehouse-session=;") })
            let after = try await client.execute(uri: "/home", method: .get, headers: [.cookie: session])
            #expect(after.status == .seeOther && after.headers[.location]?.hasPrefix("/login") == true)
        }
    }

    @Test func DA04_withAGracePeriodDeletionSignsOutEverywhereAndSigningInKeepsTheAccount() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ configuration in
            EmailAccountTests.accountsOn(fixture)(&configuration)
            configuration.accounts.deletionGraceDays = 14
        }) { client in
            let grant = try await client.grant()
            let scheduled = try await Self.delete(client, grant.accessToken, #"{"password":"\#(Fixture.password)"}"#)
            #expect(scheduled.status == .accepted)
            let answer = try scheduled.decoded(ScheduledDeletion.self)
            let due = try #require(answer.dueAt)
            #expect(answer.status == "scheduled" && abs(due.timeIntervalSince(fixture.clock.now.addingTimeInterval(14 * 86400))) < 1)
            #expect(try await client.me(grant.accessToken).status == .unauthorized, "every session ended")
            let mail = try #require(try await fixture.mails(count: 1).first)
            #expect(mail.action == "account_deletion_scheduled" && mail.subject.hasPrefix("Your Peated account will be deleted on "))
            #expect(mail.text.contains("To keep it, sign in before then."))
            #expect(try await client.login().status == .ok, "signing in within the grace period keeps the account")
            let audit = try await fixture.storedAudit(containing: ["account.deletion_scheduled", "account.deletion_cancelled"])
            #expect(audit.contains("account.deletion_scheduled") && audit.contains("account.deletion_cancelled"))

            let signedIn = try await EmailCodeRouteTests.form(client, "/login", "email=user%40example.com&password=\(Fixture.password)")
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("__Host-gatehouse-session=") })
            let headers: HTTPFields = [
                .contentType: "application/x-www-form-urlencoded", .cookie: "__Host-gatehouse-csrf=t0k3n; \(String(cookie.split(separator: ";")[0]))",
            ]
            let confirm = try await client.execute(uri: "/home/delete", method: .get, headers: headers)
            #expect(String(buffer: confirm.body).contains("deletes your Peated account in 14 days") && !String(buffer: confirm.body).contains("can&#39;t be undone"))
            let page = try await client.execute(
                uri: "/home/delete", method: .post, headers: headers, body: ByteBuffer(string: "password=\(Fixture.password)&csrf=t0k3n")
            )
            #expect(String(buffer: page.body).contains("Sign in before then to keep it."))
        }
    }
}
