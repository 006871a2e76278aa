import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 39's email change on every surface, through the real router, mail read from the outbox.
@Suite struct EmailChangeRouteTests {
    static func change(_ client: some TestClientProtocol, _ token: String, _ body: String) async throws -> TestResponse {
        try await client.postJSON("/api/auth/email/change", body, headers: [.authorization: "Bearer \(token)"])
    }

    @Test func ECH01_restMailsBothAddressesAlikeForATakenOneAndTheChangeFinishesWhenBothConfirm() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailCodeRouteTests.codesOn(fixture)) { client in
            _ = try await client.postJSON("/api/auth/signup", #"{"email":"taken@example.com","password":"another long passphrase","name":"Tak En"}"#)
            let grant = try await client.grant()
            let taken = try await Self.change(client, grant.accessToken, #"{"email":"Taken@example.com"}"#)
            #expect(taken.status == .accepted && String(buffer: taken.body) == #"{"email":"taken@example.com","status":"pending"}"#)
            let free = try await Self.change(client, grant.accessToken, #"{"email":"new@example.com"}"#)
            #expect(free.status == .accepted && String(buffer: free.body) == #"{"email":"new@example.com","status":"pending"}"#)
            let mails = try await fixture.mails(count: 5)
            #expect(mails.first { $0.to == "taken@example.com" && $0.action == "email_in_use_notification" }?.code == nil)
            let toNew = try #require(mails.first { $0.to == "new@example.com" })
            let toOld = try #require(mails.last { $0.to == Fixture.email && $0.action == "email_change" })
            #expect(toNew.action == "email_change_new" && toNew.subject == "Confirm your new Peated email")
            #expect(try #require(toNew.link).hasPrefix("http://127.0.0.1:0/email-change?token=ghm_") && toOld.text.contains("new@example.com"))

            let first = try await client.postJSON("/api/auth/email/change/verify", #"{"email":"new@example.com","code":"\#(try #require(toNew.code))"}"#)
            #expect(first.status == .ok && String(buffer: first.body) == #"{"email":"new@example.com","status":"awaiting_other"}"#)
            let second = try await client.postJSON("/api/auth/email/change/verify", #"{"token":"\#(try #require(toOld.token))"}"#)
            #expect(String(buffer: second.body) == #"{"email":"new@example.com","status":"done"}"#)
            #expect(try await client.me(grant.accessToken).status == .ok, "the requesting session stays")
            #expect(try await client.login("new@example.com", Fixture.password).status == .ok)
            let notice = try #require(try await fixture.mails(count: 6).last)
            #expect(notice.to == Fixture.email && notice.action == "email_changed_notification" && notice.code == nil)
            #expect(try #require(notice.link).contains("/email-change/revert?token=") && notice.text.contains("This wasn't me"))
        }
    }

    @Test func ECH02_badInputIsA400AndNoSessionIsA401() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let grant = try await client.grant()
            for body in [#"{}"#, #"{"email":"not an address"}"#, #"{"email":"user@example.com"}"#, #"{"email":"\#(String(repeating: "a", count: 400))@example.com"}"#] {
                let response = try await Self.change(client, grant.accessToken, body)
                #expect(response.status == .badRequest, "\(body.prefix(40))")
                #expect(try response.decoded(ErrorBody.self).error.isEmpty == false)
            }
            #expect(try await client.postJSON("/api/auth/email/change", #"{"email":"a@example.com"}"#).status == .unauthorized)
            for body in [#"{"email":"a@example.com"}"#, #"{"token":"x","code":"1"}"#, #"{"token":"\#(String(repeating: "t", count: 200))"}"#] {
                #expect(try await client.postJSON("/api/auth/email/change/verify", body).status == .badRequest, "\(body.prefix(40))")
            }
            let unknown = try await client.postJSON("/api/auth/email/change/verify", #"{"token":"ghm_unknown"}"#)
            #expect(unknown.status == .gone, "an unknown link is an expired one")
            #expect(try await client.postJSON("/api/auth/email/change/cancel", #"{"email":"a@example.com","code":"1"}"#).status == .badRequest)
        }
    }

    @Test func ECH03_goTruesUpdateUserStartsASecureChangeThatVerifyFinishes() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailCodeRouteTests.codesOn(fixture)) { client in
            let session = try await SupabaseRouteTests.signIn(client)
            let headers = SupabaseRouteTests.bearer(session["access_token"])
            var json = headers
            json[.contentType] = "application/json"
            let updated = try await client.execute(
                uri: "/auth/v1/user", method: .put, headers: json,
                body: ByteBuffer(string: #"{"email":"moved@example.com"}"#)
            )
            #expect(updated.status == .ok)
            let user = try GraphQLRouteTests.json(updated)
            #expect(user["email"] as? String == Fixture.email && user["new_email"] as? String == "moved@example.com")
            let mails = try await fixture.mails(count: 2)
            let toNew = try #require(mails.first { $0.to == "moved@example.com" }?.code)
            let toOld = try #require(mails.first { $0.to == Fixture.email }?.code)
            let single = try await client.postJSON(
                "/auth/v1/verify", #"{"type":"email_change","email":"moved@example.com","token":"\#(toNew)"}"#, headers: SupabaseRouteTests.key
            )
            #expect(try GraphQLRouteTests.json(single)["code"] as? String == "200", "GoTrue's single-confirmation answer")
            let done = try await client.postJSON(
                "/auth/v1/verify", #"{"type":"email_change","email":"user@example.com","token":"\#(toOld)"}"#, headers: SupabaseRouteTests.key
            )
            #expect(done.status == .ok)
            #expect(try GraphQLRouteTests.json(done)["email"] as? String == "moved@example.com")
            let fetched = try await client.execute(uri: "/auth/v1/user", method: .get, headers: headers)
            #expect(try GraphQLRouteTests.json(fetched)["new_email"] == nil)
        }
    }

    @Test func ECH04_graphQLChangesAndConfirmsTheEmail() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let grant = try await client.grant()
            let asked = try await client.postJSON(
                "/graphql", try GraphQLRouteTests.body("mutation($e: String!) { changeEmail(email: $e) { status email } }", ["e": "gq@example.com"]),
                headers: [.authorization: "Bearer \(grant.accessToken)"]
            )
            #expect(try GraphQLRouteTests.json(asked)["data"] as? [String: [String: String]] == ["changeEmail": ["status": "pending", "email": "gq@example.com"]])
            let mails = try await fixture.mails(count: 2)
            var last: [String: Any] = [:]
            for mail in mails {
                let confirmed = try await client.postJSON("/graphql", try GraphQLRouteTests.body(
                    "mutation($t: String!) { confirmEmailChange(data: {token: $t}) { status } }", ["t": try #require(mail.token)]
                ))
                last = try GraphQLRouteTests.json(confirmed)
            }
            #expect(last["data"] as? [String: [String: String]] == ["confirmEmailChange": ["status": "done"]])
            #expect(try await client.login("gq@example.com", Fixture.password).status == .ok)
        }
    }

    @Test func ECH05_homesChangeEmailAsksThePasswordThenTheCodeAndTheOldAddressCanCancelOrPutItBack() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let signedIn = try await EmailCodeRouteTests.form(client, "/login", "email=user%40example.com&password=\(Fixture.password)")
            let cookie = try #require(signedIn.headers[values: .setCookie].first { $0.hasPrefix("__Host-gatehouse-session=") })
            let session = String(cookie.split(separator: ";")[0])
            let home = String(buffer: try await client.execute(uri: "/home", method: .get, headers: [.cookie: session]).body)
            #expect(home.contains(#"id="change-email""#))
            let form = String(buffer: try await client.execute(uri: "/home/email", method: .get, headers: [.cookie: session]).body)
            #expect(form.contains("Change your email") && form.contains(#"name="email""#) && form.contains(#"name="password""#))
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "__Host-gatehouse-csrf=t0k3n; \(session)"]
            let wrong = try await client.execute(
                uri: "/home/email", method: .post, headers: headers, body: ByteBuffer(string: "email=web%40example.com&password=nope&csrf=t0k3n")
            )
            #expect(wrong.status == .unauthorized && String(buffer: wrong.body).contains("That password isn&#39;t right"))
            let sent = try await client.execute(
                uri: "/home/email", method: .post, headers: headers,
                body: ByteBuffer(string: "email=web%40example.com&password=\(Fixture.password)&csrf=t0k3n")
            )
            #expect(sent.status == .ok && String(buffer: sent.body).contains("We sent a link and a 6-digit code to web@example.com"))
            let pending = String(buffer: try await client.execute(uri: "/home", method: .get, headers: [.cookie: session]).body)
            #expect(pending.contains("Waiting for confirmation of web@example.com"))
            let mails = try await fixture.mails(count: 2)
            let toOld = try #require(mails.first { $0.to == Fixture.email }?.token)
            let page = String(buffer: try await client.execute(uri: "/email-change?token=\(toOld)", method: .get).body)
            #expect(page.contains("Change the email of your Peated account to web@example.com?") && page.contains(#"id="cancel-change""#))
            let cancelled = try await client.execute(
                uri: "/email-change/cancel", method: .post, headers: headers, body: ByteBuffer(string: "token=\(toOld)&csrf=t0k3n")
            )
            #expect(String(buffer: cancelled.body).contains("The email change was cancelled."))
            let code = try #require(mails.first { $0.to == "web@example.com" }?.code)
            let late = try await client.execute(
                uri: "/email-change/code", method: .post, headers: headers, body: ByteBuffer(string: "email=web%40example.com&code=\(code)&csrf=t0k3n")
            )
            #expect(late.status == .gone && String(buffer: late.body).contains("This link has expired"))
        }
    }

    @Test func ECH06_theOldAddressesThisWasntMePutsItBackAndOpensTheResetPage() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let grant = try await client.grant()
            _ = try await Self.change(client, grant.accessToken, #"{"email":"thief@example.com"}"#)
            for mail in try await fixture.mails(count: 2) {
                _ = try await client.postJSON("/api/auth/email/change/verify", #"{"token":"\#(try #require(mail.token))"}"#)
            }
            let revert = try #require(try await fixture.mails(count: 3).last?.token)
            let page = String(buffer: try await client.execute(uri: "/email-change/revert?token=\(revert)", method: .get).body)
            #expect(page.contains("Put your email back?") && page.contains("Put my email back"))
            let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "__Host-gatehouse-csrf=t0k3n"]
            let done = try await client.execute(uri: "/email-change/revert", method: .post, headers: headers, body: ByteBuffer(string: "token=\(revert)&csrf=t0k3n"))
            #expect(done.status == .seeOther && done.headers[.location]?.hasPrefix("/reset-password?token=ghm_") == true)
            #expect(try await client.me(grant.accessToken).status == .unauthorized, "every session ended")
            #expect(try await client.login(Fixture.email, Fixture.password).status == .ok, "the old address signs in again")
        }
    }
}
