import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import GatehousePhoneNumbers
import GatehouseServer
import GatehouseSQL
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import Logging
import SQLKit
import HummingbirdTesting
import Testing

/// Issue 35, the third attacker's pass over mail, resets and operators' passwords: each test
/// replays the attack that worked and proves the answer (`docs/hardening.md`, S4 onwards).
@Suite struct ThirdPassHardeningTests {
    static let newPassword = EmailAccountTests.newPassword

    /// Peated's accounts with GoTrue's surface and the admin API on.
    static func accountsAndSupabase(_ fixture: Fixture) -> (inout GatehouseConfiguration) -> Void {
        { configuration in
            EmailAccountTests.accountsOn(fixture)(&configuration)
            configuration.supabaseAnonKey = SupabaseRouteTests.anonKey
            configuration.serviceRoleKey = AdminAPITests.serviceRoleKey
        }
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// Peated's accounts without the verified-email rule: an attacker's pre-hijacked account
    /// can be signed in to before anyone proves the address.
    static func openAccounts(_ fixture: Fixture) -> (inout GatehouseConfiguration) -> Void {
        { EmailAccountTests.accountsOn(fixture)(&$0); $0.accounts.requireVerifiedEmail = false }
    }

    static func signUp(_ client: any TestClientProtocol, _ email: String, _ password: String, name: String) async throws -> (TestResponse, HTTPFields) {
        let body = String(decoding: try JSONEncoder().encode(["email": email, "password": password, "name": name]), as: UTF8.self)
        let response = try await client.postJSON("/api/auth/signup", body)
        return (response, [.gatehouseSignUp: response.headers[.gatehouseSignUp] ?? ""])
    }

    @Test func S3_aSignUpsLinkSignsInOnlyWhereTheSignUpWasMadeAndElsewhereOnlyVerifies() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let (signUp, here) = try await Self.signUp(client, "ann@example.com", Self.newPassword, name: "Ann")
            #expect(signUp.status == .accepted && (here[.gatehouseSignUp]?.hasPrefix("ghs_") ?? false))
            let mail = try #require(try await fixture.mails(count: 1).first)
            #expect(mail.text.contains("If you did not sign up for Peated, you can ignore this email."))
            let token = try #require(mail.token)
            let elsewhere = try await client.postJSON("/api/auth/email/verify", #"{"token":"\#(token)"}"#)
            #expect(elsewhere.status == .forbidden)
            #expect(try elsewhere.decoded(ErrorBody.self) == ErrorBody(error: "email_verified_sign_in", message: "Email verified. Sign in to continue."))
            #expect(try await client.login("ann@example.com", Self.newPassword).status == .ok, "the address is verified")
            // Where the sign-up was made, the link signs in.
            _ = try await Self.signUp(client, "bea@example.com", Self.newPassword, name: "Bea")
            let (_, there) = try await Self.signUp(client, "cy@example.com", Self.newPassword, name: "Cy")
            let cy = try #require(try await fixture.mails(count: 3).first { $0.to == "cy@example.com" }?.token)
            #expect(try await client.postJSON("/api/auth/email/verify", #"{"token":"\#(cy)"}"#, headers: there).status == .ok)
        }
    }

    @Test func S3_theAddresssOwnerSigningUpTakesOverAnAccountNobodyProvedAndEndsTheAttackersWayIn() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.openAccounts(fixture)) { client in
            // The attacker signs up the victim's address and keeps a session.
            let (attackerSignUp, _) = try await Self.signUp(client, "victim@example.com", "the attacker's passphrase", name: "Mallory")
            let attacker = try await client.grant("victim@example.com", "the attacker's passphrase")
            // The attacker's mail went out then (its sending starts after the answer: waiting for
            // it here keeps the victim's mail the last one, however busy the machine).
            _ = try await fixture.mails(count: 1)
            // The victim signs up later: the same answer as for a new address, and a verification mail.
            fixture.clock.advance(by: 61)
            let (victimSignUp, victimsDevice) = try await Self.signUp(client, "victim@example.com", Self.newPassword, name: "Vera Victim")
            #expect(victimSignUp.status == attackerSignUp.status && String(buffer: victimSignUp.body) == String(buffer: attackerSignUp.body))
            let mail = try #require(try await fixture.mails(count: 2).last)
            #expect(mail.action == "signup" && mail.to == "victim@example.com")
            let verified = try await client.postJSON(
                "/api/auth/email/verify", #"{"email":"victim@example.com","code":"\#(mail.code ?? "")"}"#, headers: victimsDevice
            )
            #expect(verified.status == .ok)
            #expect(try verified.decoded(TokenGrant.self).user.name == "Vera Victim")
            #expect(try await client.refresh(attacker.refreshToken).status == .unauthorized, "the attacker's session ended")
            #expect(try await client.login("victim@example.com", "the attacker's passphrase").status == .unauthorized)
            #expect(try await client.login("victim@example.com", Self.newPassword).status == .ok)
        }
    }

    @Test func S3_aReSignUpsMailUsedAwayFromItsSignUpChangesNoPassword() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        _ = try await fixture.withAdministration {
            try await $0.create(email: "owner@example.com", name: PersonName(full: "Olga Owner"), password: Self.newPassword, emailVerified: false)
        }
        try await fixture.test(Self.openAccounts(fixture)) { client in
            // Someone else signs the owner's unproved address up again; the owner opens the mail.
            _ = try await Self.signUp(client, "owner@example.com", "the attacker's passphrase", name: "Mallory")
            let mail = try #require(try await fixture.mails(count: 1).last)
            let opened = try await client.postJSON("/api/auth/email/verify", #"{"token":"\#(mail.token ?? "")"}"#)
            #expect(try opened.status == .forbidden && opened.decoded(ErrorBody.self).error == "email_verified_sign_in")
            #expect(try await client.login("owner@example.com", "the attacker's passphrase").status == .unauthorized)
            let owner = try await client.login("owner@example.com", Self.newPassword)
            #expect(try owner.status == .ok && owner.decoded(TokenGrant.self).user.name == "Olga Owner")
        }
    }

    @Test func S4_aResetByMailEndsEverySessionAndRemovesEveryPasskeyAndItsMailSaysSo() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            // The attacker, with the password, adds a passkey and keeps a session.
            let attacker = SoftwareAuthenticator(origin: PasskeyRouteTests.origin)
            let session = try await client.grant()
            #expect(try await client.registerPasskey(attacker, token: session.accessToken).status == .created)
            #expect(try await client.signInWithPasskey(attacker).status == .ok)
            // The owner resets by mail.
            _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            // The passkey's notice came first (issue 39); then the reset.
            let mails = try await fixture.mails(count: 2)
            #expect(mails.map(\.action).sorted() == ["passkey_added_notification", "recovery"])
            let mail = try #require(mails.first { $0.action == "recovery" })
            #expect(mail.text.contains("signs you out everywhere and removes your passkeys"))
            let reset = try await client.postJSON(
                "/api/auth/password/reset", #"{"token":"\#(mail.token ?? "")","password":"\#(Self.newPassword)"}"#
            )
            #expect(reset.status == .ok)
            #expect(try await client.signInWithPasskey(attacker).status != .ok, "the attacker's passkey is gone")
            #expect(try await client.refresh(session.refreshToken).status == .unauthorized, "and so is the session")
            let owner = try reset.decoded(TokenGrant.self)
            let list = try await client.execute(uri: "/api/auth/passkeys", method: .get, headers: [.authorization: "Bearer \(owner.accessToken)"])
            #expect(String(buffer: list.body) == #"{"passkeys":[]}"#)
        }
        let removed = try await AuditLogTests.entries(fixture, AuditQuery(types: ["passkey.removed"]))
        #expect(removed.count == 1)
    }

    @Test func S5_supabasesPasswordChangeNeedsTheCurrentPasswordOrAMailedNonce() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsAndSupabase(fixture)) { client in
            let signIn = try await SupabaseRouteTests.signIn(client)
            let me = SupabaseRouteTests.bearer(signIn["access_token"])
            // A fresh password session (a stolen token would do) no longer sets a password alone.
            let bare = try await client.execute(uri: "/auth/v1/user", method: .put, headers: me, body: ByteBuffer(string: #"{"password":"a thief's new passphrase"}"#))
            #expect(bare.status == .badRequest)
            #expect(try Self.json(bare)["error_code"] as? String == "reauthentication_needed")
            let wrongCurrent = try await client.execute(
                uri: "/auth/v1/user", method: .put, headers: me,
                body: ByteBuffer(string: #"{"password":"a thief's new passphrase","current_password":"not it"}"#)
            )
            #expect(try wrongCurrent.status == .badRequest && Self.json(wrongCurrent)["error_code"] as? String == "invalid_credentials")
            // The owner asks for a code, and the mailed code is the nonce, once.
            let asked = try await client.execute(uri: "/auth/v1/reauthenticate", method: .get, headers: me)
            #expect(asked.status == .ok)
            let mail = try #require(try await fixture.mails(count: 1).first)
            #expect(mail.to == Fixture.email && mail.action == "reauthentication" && mail.link == nil)
            let nonce = try #require(mail.code)
            let wrongNonce = nonce == "000000" ? "111111" : "000000"
            let wrong = try await client.execute(
                uri: "/auth/v1/user", method: .put, headers: me, body: ByteBuffer(string: #"{"password":"\#(Self.newPassword)","nonce":"\#(wrongNonce)"}"#)
            )
            #expect(wrong.status == .forbidden)
            let changed = try await client.execute(
                uri: "/auth/v1/user", method: .put, headers: me, body: ByteBuffer(string: #"{"password":"\#(Self.newPassword)","nonce":"\#(nonce)"}"#)
            )
            #expect(changed.status == .ok, "\(String(buffer: changed.body))")
            let again = try await client.execute(
                uri: "/auth/v1/user", method: .put, headers: me, body: ByteBuffer(string: #"{"password":"yet another passphrase","nonce":"\#(nonce)"}"#)
            )
            #expect(again.status == .forbidden, "a nonce works once")
            #expect(try await client.login(Fixture.email, Self.newPassword).status == .ok)
            // The current password is proof too.
            let byCurrent = try await client.execute(
                uri: "/auth/v1/user", method: .put, headers: me,
                body: ByteBuffer(string: #"{"password":"yet another passphrase","current_password":"\#(Self.newPassword)"}"#)
            )
            #expect(byCurrent.status == .ok)
            #expect(try await client.login(Fixture.email, "yet another passphrase").status == .ok)
        }
    }

    @Test func S5_aRecoveryLinksSessionSetsThePasswordOnceWithoutAnotherProof() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsAndSupabase(fixture)) { client in
            _ = try await client.postJSON("/auth/v1/recover", #"{"email":"\#(Fixture.email)"}"#, headers: SupabaseRouteTests.key)
            let code = try #require(try await fixture.mails(count: 1).first?.code)
            let verified = try await client.postJSON(
                "/auth/v1/verify", #"{"type":"recovery","email":"\#(Fixture.email)","token":"\#(code)"}"#, headers: SupabaseRouteTests.key
            )
            let me = SupabaseRouteTests.bearer(try Self.json(verified)["access_token"])
            let set = try await client.execute(uri: "/auth/v1/user", method: .put, headers: me, body: ByteBuffer(string: #"{"password":"\#(Self.newPassword)"}"#))
            #expect(set.status == .ok)
            let twice = try await client.execute(uri: "/auth/v1/user", method: .put, headers: me, body: ByteBuffer(string: #"{"password":"yet another passphrase"}"#))
            #expect(twice.status == .badRequest, "once")
        }
    }

    @Test func S6_aCodeForAnAddressWithNoAccountAnswersExactlyLikeAWrongCode() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            var answers: [String: [String]] = [:]
            for email in [Fixture.email, "nobody@example.com"] {
                _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(email)"}"#)
                for _ in 0..<6 {
                    let response = try await client.postJSON(
                        "/api/auth/password/reset", #"{"email":"\#(email)","code":"000000","password":"\#(Self.newPassword)"}"#
                    )
                    answers[email, default: []].append("\(response.status.code) \(String(buffer: response.body))")
                }
            }
            #expect(answers[Fixture.email] == answers["nobody@example.com"])
            #expect(answers[Fixture.email]?.first?.hasPrefix("400 ") == true, "\(answers)")
            // A sign-up of a taken address leaves a verification code that answers alike too.
            fixture.clock.advance(by: 61)  // past the back-off the six wrong codes above started
            for email in [Fixture.email, "fresh@example.com"] {
                _ = try await client.postJSON("/api/auth/signup", EmailAccountTests.signUpBody(email))
                let response = try await client.postJSON("/api/auth/email/verify", #"{"email":"\#(email)","code":"000000"}"#)
                #expect(try response.status == .badRequest && response.decoded(ErrorBody.self).error == "invalid_code", "\(email): \(response.status) \(String(buffer: response.body))")
            }
        }
    }

    @Test func S6_aSignUpOfATakenAddressLeavesAPendingPasswordThatAnswersExactlyAsANewAddressWould() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let password = "a pending passphrase here"
            var answers: [String: [String]] = [:]
            for email in ["brand.new@example.com", Fixture.email] {
                let (signUp, _) = try await Self.signUp(client, email, password, name: "Someone")
                #expect(signUp.status == .accepted)
                for attempt in [password, "not the password at all"] {
                    let response = try await client.login(email, attempt)
                    answers[email, default: []].append("\(response.status.code) \(String(buffer: response.body))")
                }
            }
            #expect(answers["brand.new@example.com"] == answers[Fixture.email], "\(answers)")
            #expect(answers[Fixture.email]?.first?.hasPrefix("403 ") == true)
            #expect(try await client.login(Fixture.email, Fixture.password).status == .ok, "the owner's own password still works")
            // "Resend email" for the taken address mails its owner the notice, and keeps the pending password.
            fixture.clock.advance(by: 61)
            let before = try fixture.mails().count
            #expect(try await client.postJSON("/api/auth/email/resend", #"{"email":"\#(Fixture.email)"}"#).status == .accepted)
            let notice = try #require(try await fixture.mails(count: before + 1).last)
            #expect(notice.to == Fixture.email && notice.action == "existing_account" && notice.link?.hasSuffix("/login") == true)
            #expect(try await client.login(Fixture.email, password).status == .forbidden)
            // The pending sign-up ends with the verification window.
            fixture.clock.advance(by: 24 * 3600 + 1)
            #expect(try await client.login(Fixture.email, password).status == .unauthorized)
        }
    }

    @Test func S7_mailCodeGuessesBuildAStreakAndHaveADailyCapPerAddress() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let rounds = try await fixture.test({
            EmailAccountTests.accountsOn(fixture)(&$0)
            $0.trustedProxies = try! TrustedProxies(["127.0.0.0/8"])
        }, mode: .live) { client in
            // Each round from another address, so no one source's back-off is what stops it.
            var rounds: [[String]] = []
            for round in 1...5 {
                let from: HTTPFields = [.xForwardedFor: "198.51.100.\(round)"]
                _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#, headers: from)
                var answers: [String] = []
                for _ in 0..<5 {
                    let response = try await client.postJSON(
                        "/api/auth/password/reset", #"{"email":"\#(Fixture.email)","code":"000000","password":"\#(Self.newPassword)"}"#,
                        headers: from
                    )
                    answers.append("\(response.status.code) \(try response.decoded(ErrorBody.self).error)")
                }
                rounds.append(answers)
                fixture.clock.advance(by: 61)
            }
            return rounds
        }
        let wrong = ["400 invalid_code", "400 invalid_code", "400 invalid_code", "400 invalid_code", "429 code_attempts_exceeded"]
        #expect(Array(rounds.prefix(4)) == Array(repeating: wrong, count: 4))
        #expect(rounds.last == Array(repeating: "429 rate_limited", count: 5), "20 guesses a day, whatever the mails")
        let refused = try await AuditLogTests.entries(fixture, AuditQuery(types: ["sign_in.refused"]))
        #expect(refused.count == 20 && refused.allSatisfy { $0.details["reason"] == "invalid_code" && $0.details["method"] == "password_reset" })
        // Five wrong codes from one source are a streak, as five wrong passwords are.
        let throttled = try await AuditLogTests.entries(fixture, AuditQuery(types: ["sign_in.throttled"]))
        #expect(throttled.isEmpty, "each round's source stopped at five, under its own back-off")
    }

    @Test func S8_aResetForAnUnknownAddressMakesTheSameWriteAsOneWithAnAccount() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            for email in [Fixture.email, "nobody@example.com"] {
                let answer = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(email)"}"#)
                #expect(answer.status == .accepted)
            }
        }
        let rows = try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
            try await storage.repository.database.select().column("target").from("one_time_secrets")
                .where("purpose", .equal, OneTimeSecretPurpose.passwordReset.rawValue).all()
                .map { try $0.decode(column: "target", as: String.self) }
        }
        #expect(rows.sorted() == ["nobody@example.com", Fixture.email])
    }

    @Test func S10_operatorsPasswordsPassTheSignUpPolicy() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsAndSupabase(fixture)) { client in
            for weak in ["a", " ", "password", "password123", "short"] {
                let body = String(decoding: try JSONEncoder().encode(["email": "weak@example.com", "password": weak]), as: UTF8.self)
                let created = try await AdminAPITests.send(client, .post, "/auth/v1/admin/users", body)
                #expect((400..<500).contains(created.status.code), "\(weak.debugDescription): \(created.status)")
            }
            let id = try await client.grant().user.id
            let update = try await AdminAPITests.send(client, .put, "/auth/v1/admin/users/\(id)", #"{"password":"password"}"#)
            #expect(update.status.code == 400 || update.status.code == 422)
            let fine = try await AdminAPITests.send(
                client, .post, "/auth/v1/admin/users", #"{"email":"fine@example.com","password":"\#(Self.newPassword)"}"#
            )
            #expect(fine.status == .ok)
        }
        await #expect(throws: AdministrationError.self) {
            try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
                try await UserAdministration(repository: storage.repository, numbers: LibPhoneNumber()).setPassword("password", account: .email(Fixture.email))
            }
        }
    }

    @Test func S14_theAuditLogRecordsWrongMailSecretsRefusedMailTakenSignUpsAndWrongCurrentPasswords() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let from: HTTPFields = [.xForwardedFor: "198.51.100.9"]
        try await fixture.test({
            EmailAccountTests.accountsOn(fixture)(&$0)
            $0.trustedProxies = try! TrustedProxies(["127.0.0.0/8"])
        }, mode: .live) { client in
            _ = try await client.postJSON("/api/auth/email/verify", #"{"token":"ghm_not-a-real-token"}"#, headers: from)
            _ = try await client.postJSON("/api/auth/signup", EmailAccountTests.signUpBody(Fixture.email), headers: from)
            _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#, headers: from)
            let refused = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#, headers: from)
            #expect(refused.status == .tooManyRequests)
            let grant = try await client.grant()
            let change = try await client.postJSON(
                "/api/auth/password", #"{"current_password":"not it","password":"\#(Self.newPassword)"}"#,
                headers: [.authorization: "Bearer \(grant.accessToken)", .xForwardedFor: "198.51.100.9"]
            )
            #expect(change.status == .unauthorized)
            _ = try await fixture.mails(count: 2)
        }
        let entries = try await AuditLogTests.entries(fixture)
        let types = Set(entries.map(\.type))
        for expected in ["sign_in.refused", "account.sign_up_existing", "request.throttled", "password.change_refused", "message.sent"] {
            #expect(types.contains(expected), "\(expected) in \(types)")
        }
        #expect(entries.first { $0.type == "sign_in.refused" }?.details["reason"] == "link_expired")
        #expect(entries.first { $0.type == "request.throttled" }?.details["limit"] == "mail_recipient")
        let sent = entries.filter { $0.type == "message.sent" }
        #expect(!sent.isEmpty && sent.allSatisfy { $0.address == "198.51.100.9" }, "\(sent)")
    }

    @Test func S17_aResetWithABogusTokenIsRefusedBeforeItsPasswordIsLookedAt() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            // A password the policy refuses: before, the policy (and the hash) came first, 422.
            let response = try await client.postJSON("/api/auth/password/reset", #"{"token":"ghm_bogus","password":"short"}"#)
            #expect(try response.status == .gone && response.decoded(ErrorBody.self).error == "link_expired")
        }
    }
}
