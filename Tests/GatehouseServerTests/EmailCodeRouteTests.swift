import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 39's mailed sign-in code on every surface, through the real router, mail read from the outbox.
@Suite struct EmailCodeRouteTests {
    /// Peated's accounts with `emailCode` listed, and the Supabase routes on.
    static func codesOn(_ fixture: Fixture) -> (inout GatehouseConfiguration) -> Void {
        { configuration in
            EmailAccountTests.accountsOn(fixture)(&configuration)
            configuration.signInMethods = SignInMethods(methods: [.email, .emailCode])
            configuration.supabaseAnonKey = SupabaseRouteTests.anonKey
        }
    }

    @Test func EC01_theRequestAnswersAlikeForEveryAddressAndTheCodeSignsInOnce() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.codesOn(fixture)) { client in
            let known = try await client.postJSON("/api/auth/email/otp", #"{"email":"USER@example.com"}"#)
            let unknown = try await client.postJSON("/api/auth/email/otp", #"{"email":"nobody@example.com"}"#)
            #expect(known.status == .accepted && unknown.status == .accepted)
            #expect(String(buffer: known.body) == #"{"email":"user@example.com","status":"accepted"}"#)
            #expect(String(buffer: unknown.body) == #"{"email":"nobody@example.com","status":"accepted"}"#)
            let mail = try #require(try await fixture.mails(count: 1).first)
            try await Task.sleep(for: .milliseconds(100))
            #expect(try fixture.mails().map(\.to) == [Fixture.email], "no mail to an address without an account")
            #expect(mail.action == "magiclink" && mail.subject == "Your Peated sign-in code")
            let code = try #require(mail.code)
            #expect(try #require(mail.link).hasPrefix("http://127.0.0.1:0/sign-in-link?token=ghm_"))
            #expect(mail.text.contains(code) && mail.html.contains(code))
            let signedIn = try await client.postJSON("/api/auth/email/otp/verify", #"{"email":"user@example.com","code":"\#(code)"}"#)
            #expect(signedIn.status == .ok, "\(String(buffer: signedIn.body))")
            #expect(try signedIn.decoded(TokenGrant.self).user.email == Fixture.email)
            let again = try await client.postJSON("/api/auth/email/otp/verify", #"{"email":"user@example.com","code":"\#(code)"}"#)
            #expect(again.status == .gone)
            #expect(try again.decoded(ErrorBody.self).error == "code_expired")
            let stored = try await fixture.storedText(["one_time_secrets"])
            #expect(!stored.contains(code) && !stored.contains(mail.token ?? "-"))
        }
    }

    @Test func EC02_createUserMakesAVerifiedAccountOnlyWhenTheLinkIsUsed() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.codesOn(fixture)) { client in
            let sent = try await client.postJSON("/api/auth/email/otp", #"{"email":"fresh@example.com","create_user":true,"name":"Fresh Person"}"#)
            #expect(sent.status == .accepted)
            let token = try #require(try await fixture.mails(count: 1).first?.token)
            let signedIn = try await client.postJSON("/api/auth/email/otp/verify", #"{"token":"\#(token)"}"#)
            #expect(signedIn.status == .ok)
            let user = try signedIn.decoded(TokenGrant.self).user
            #expect(user.email == "fresh@example.com" && user.name == "Fresh Person")
            // requireVerifiedEmail is on, and the code proved the address: nothing more to verify.
            #expect(try await client.me(try signedIn.decoded(TokenGrant.self).accessToken).status == .ok)
        }
    }

    @Test func EC03_badInputIsA400AndAnAppWithoutEmailCodeRefusesIt() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.codesOn(fixture)) { client in
            for (path, body) in [
                ("/api/auth/email/otp", #"{"email":"not an address"}"#), ("/api/auth/email/otp", #"{}"#),
                ("/api/auth/email/otp", #"{"email":"a@example.com","name":"\#(String(repeating: "x", count: 300))"}"#),
                ("/api/auth/email/otp/verify", #"{"email":"a@example.com"}"#),
                ("/api/auth/email/otp/verify", #"{"token":"t","email":"a@example.com","code":"1"}"#),
                ("/api/auth/email/otp/verify", #"{"email":"a@example.com","code":"1","password":"x"}"#),
            ] {
                let response = try await client.postJSON(path, body)
                #expect(response.status == .badRequest, "\(path) \(body.prefix(50))")
                #expect(try response.decoded(ErrorBody.self).error.isEmpty == false)
            }
        }
        let plain = try await Fixture(argon2: Fixture.cheap)
        try await plain.test(EmailAccountTests.accountsOn(plain)) { client in
            let refused = try await client.postJSON("/api/auth/email/otp", #"{"email":"user@example.com"}"#)
            #expect(refused.status == .forbidden)
            #expect(try refused.decoded(ErrorBody.self).error == "sign_in_method_not_offered")
        }
    }

    @Test func EC04_supabaseSignInWithOtpAndVerifyOtpByCodeAndByMagicLink() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.codesOn(fixture)) { client in
            let sent = try await client.postJSON(
                "/auth/v1/otp", #"{"email":"user@example.com","data":null,"create_user":true,"gotrue_meta_security":{"captcha_token":null}}"#,
                headers: SupabaseRouteTests.key
            )
            #expect(sent.status == .ok && String(buffer: sent.body) == "{}")
            let code = try #require(try await fixture.mails(count: 1).first?.code)
            let verified = try await client.postJSON(
                "/auth/v1/verify", #"{"type":"email","email":"user@example.com","token":"\#(code)"}"#, headers: SupabaseRouteTests.key
            )
            #expect(verified.status == .ok, "\(String(buffer: verified.body))")
            let session = try #require(try JSONSerialization.jsonObject(with: Data(buffer: verified.body)) as? [String: Any])
            #expect(session["access_token"] is String && (session["user"] as? [String: Any])?["email"] as? String == Fixture.email)
            let magic = try await client.postJSON("/auth/v1/magiclink", #"{"email":"other@example.com"}"#, headers: SupabaseRouteTests.key)
            #expect(magic.status == .ok)
            let token = try #require(try await fixture.mails(count: 2).last?.token)
            let byLink = try await client.postJSON(
                "/auth/v1/verify", #"{"type":"magiclink","token_hash":"\#(token)"}"#, headers: SupabaseRouteTests.key
            )
            #expect(byLink.status == .ok, "\(String(buffer: byLink.body))")
        }
    }

    @Test func EC05_graphQLSendsAndVerifiesACode() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.codesOn(fixture)) { client in
            let send = try await client.postJSON("/graphql", try GraphQLRouteTests.body(
                "mutation($e: String!) { sendEmailCode(email: $e) }", ["e": "user@example.com"]
            ))
            #expect(try GraphQLRouteTests.json(send)["data"] as? [String: Bool] == ["sendEmailCode": true])
            let code = try #require(try await fixture.mails(count: 1).first?.code)
            let verify = try await client.postJSON("/graphql", try GraphQLRouteTests.body(
                "mutation($e: String!, $c: String!) { verifyEmailCode(data: { email: $e, code: $c }) { token user { email } } }",
                ["e": "user@example.com", "c": code]
            ))
            let payload = try #require((try GraphQLRouteTests.json(verify)["data"] as? [String: Any])?["verifyEmailCode"] as? [String: Any])
            #expect((payload["user"] as? [String: String])?["email"] == Fixture.email && payload["token"] is String)
        }
    }

    @Test func EC06_theWebPagesSendTheCodeAndSignInWithItOrWithTheLinksOneButton() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.codesOn(fixture)) { client in
            let login = try await client.execute(uri: "/login", method: .get)
            #expect(String(buffer: login.body).contains("Email me a sign-in code"))
            let sent = try await Self.form(client, "/sign-in-code", "email=User%40example.com")
            #expect(sent.status == .ok)
            #expect(String(buffer: sent.body).contains("We sent a 6-digit code to user@example.com"))
            let code = try #require(try await fixture.mails(count: 1).first?.code)
            let wrong = try await Self.form(client, "/sign-in-code/verify", "email=user%40example.com&code=\(code == "000000" ? "111111" : "000000")")
            #expect(wrong.status == .badRequest && String(buffer: wrong.body).contains("Incorrect code. Tries left: 4"), "\(String(buffer: wrong.body).prefix(200))")
            let signedIn = try await Self.form(client, "/sign-in-code/verify", "email=user%40example.com&code=\(code)")
            #expect(signedIn.status == .seeOther && signedIn.headers[.location] == "/home")
            let empty = try await Self.form(client, "/sign-in-code", "email=")
            #expect(empty.status == .unprocessableContent && String(buffer: empty.body).contains("Email is required"))
            // The link's page only shows a button: opening it spends nothing.
            try await Task.sleep(for: .seconds(1))
            let token = try #require(try await fixture.mails(count: 1).first?.token)
            let page = try await client.execute(uri: "/sign-in-link?token=\(token)", method: .get)
            #expect(page.status == .ok && String(buffer: page.body).contains("Tap Sign in to finish signing in."))
            let spent = try await Self.form(client, "/sign-in-link", "token=\(token)")
            #expect(spent.status == .gone && String(buffer: spent.body).contains("Email me a sign-in code"), "the code was used: its link is spent too")
        }
    }

    /// A form post with the CSRF cookie and field.
    static func form(_ client: some TestClientProtocol, _ uri: String, _ body: String) async throws -> TestResponse {
        let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .cookie: "__Host-gatehouse-csrf=t0k3n"]
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body + "&csrf=t0k3n"))
    }
}
