import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GatehouseModel
import GatehouseServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 22 over REST: sign-up, verification, reset and change, with mail read from the outbox.
@Suite struct EmailAccountTests {
    static let newEmail = "new.person@example.com"
    static let newPassword = "correct horse battery staple"

    /// Peated's accounts (sign-up, reset, verified email required) with mail to the fixture's outbox.
    static func accountsOn(_ fixture: Fixture) -> (inout GatehouseConfiguration) -> Void {
        { configuration in
            configuration.accounts = AccountOptions(signUp: true, passwordReset: true, requireVerifiedEmail: true)
            configuration.email = .outbox(path: fixture.mailOutbox)
            configuration.login.appName = "Peated"
        }
    }

    static func signUpBody(_ email: String = newEmail, _ password: String = newPassword) -> String {
        String(decoding: try! JSONEncoder().encode(["email": email, "password": password, "name": "New Person"]), as: UTF8.self)
    }

    @Test func E01_signUpMailsALinkAndACodeAndTheCodeVerifiesAndSignsIn() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            let signUp = try await client.postJSON("/api/auth/signup", Self.signUpBody())
            #expect(signUp.status == .accepted)
            #expect(String(buffer: signUp.body) == #"{"email":"new.person@example.com","status":"accepted"}"#)
            let mail = try #require(try await fixture.mails(count: 1).first)
            #expect(mail.to == Self.newEmail && mail.action == "signup" && mail.subject == "Verify your email for Peated")
            let code = try #require(mail.code)
            #expect(code.count == 6 && code.allSatisfy(\.isNumber))
            #expect(try #require(mail.link).hasPrefix("http://127.0.0.1:0/verify-email?token=ghm_"))
            #expect(mail.text.contains(code) && mail.html.contains(code) && mail.text.contains(mail.link ?? "-"))
            let unverified = try await client.login(Self.newEmail, Self.newPassword)
            #expect(unverified.status == .forbidden)
            #expect(try unverified.decoded(ErrorBody.self) == ErrorBody(error: "email_not_verified", message: "Please verify your email address."))
            let wrong = try await client.login(Self.newEmail, "not the password")
            #expect(wrong.status == .unauthorized, "only the right password hears email_not_verified")
            let verified = try await client.postJSON("/api/auth/email/verify", #"{"email":"New.Person@example.com","code":"\#(code)"}"#)
            #expect(verified.status == .ok && verified.headers[.cacheControl] == "no-store", "\(String(buffer: verified.body))")
            #expect(try verified.decoded(TokenGrant.self).user.email == Self.newEmail)
            #expect(try await client.login(Self.newEmail, Self.newPassword).status == .ok)
            let again = try await client.postJSON("/api/auth/email/verify", #"{"email":"\#(Self.newEmail)","code":"\#(code)"}"#)
            #expect(again.status == .gone, "single use")
            #expect(try again.decoded(ErrorBody.self).error == "code_expired")
            let stored = try await fixture.storedText(["one_time_secrets", "throttles", "identities"])
            let token = String(try #require(mail.link).split(separator: "=").last ?? "")
            #expect(!stored.contains(code) && !stored.contains(token), "secrets are stored only hashed or keyed")
        }
    }

    @Test func E02_theLinksTokenVerifiesOnceAndExpiresAfter24Hours() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            let signUp = try await client.postJSON("/api/auth/signup", Self.signUpBody())
            let here: HTTPFields = [.gatehouseSignUp: try #require(signUp.headers[.gatehouseSignUp])]
            let token = try #require(try await fixture.mails(count: 1).first?.token)
            let used = try await client.postJSON("/api/auth/email/verify", #"{"token":"\#(token)"}"#, headers: here)
            #expect(used.status == .ok)
            let reused = try await client.postJSON("/api/auth/email/verify", #"{"token":"\#(token)"}"#)
            #expect(reused.status == .gone)
            #expect(try reused.decoded(ErrorBody.self).error == "link_expired")
            _ = try await client.postJSON("/api/auth/signup", Self.signUpBody("later@example.com"))
            let late = try #require(try await fixture.mails(count: 2).last?.token)
            fixture.clock.advance(by: 24 * 3600 + 1)
            let expired = try await client.postJSON("/api/auth/email/verify", #"{"token":"\#(late)"}"#)
            #expect(expired.status == .gone)
            #expect(try expired.decoded(ErrorBody.self).error == "link_expired")
        }
    }

    @Test func E03_signUpWithATakenAddressAnswersExactlyAsANewOneAndMailsTheOwner() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            let taken = try await client.postJSON("/api/auth/signup", Self.signUpBody(Fixture.email))
            let fresh = try await client.postJSON("/api/auth/signup", Self.signUpBody("fresh@example.com"))
            #expect(taken.status == fresh.status && taken.status == .accepted)
            #expect(String(buffer: taken.body) == String(buffer: fresh.body).replacingOccurrences(of: "fresh@example.com", with: Fixture.email))
            #expect(taken.headers.map(\.name) == fresh.headers.map(\.name))
            let mails = try await fixture.mails(count: 2)
            let owner = try #require(mails.first { $0.to == Fixture.email })
            #expect(owner.action == "existing_account" && owner.code == nil && owner.subject == "You already have a Peated account")
            #expect(owner.text.contains("http://127.0.0.1:0/login") && owner.text.contains("http://127.0.0.1:0/forgot-password"))
            #expect(try await client.login().status == .ok, "the owner's password is untouched")
        }
    }

    @Test func E04_newPasswordsFollowTheNISTPolicyWithTheAppsCopy() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            for (password, message) in [
                ("short", "Password must be at least 8 characters"),
                ("password1", "This password is too common. Please choose another."),
                ("IloveYou", "This password is too common. Please choose another."),
                (String(repeating: "é", count: 600), "Password must be at most 1024 characters"),
            ] {
                let response = try await client.postJSON("/api/auth/signup", Self.signUpBody("p@example.com", password))
                #expect(response.status == .badRequest, "\(password.prefix(10))")
                #expect(try response.decoded(ErrorBody.self) == ErrorBody(error: "weak_password", message: message))
            }
            #expect(try fixture.mails().isEmpty, "a refusal mails nothing")
            let spaces = try await client.postJSON("/api/auth/signup", Self.signUpBody("p@example.com", "no rules at all 🙂"))
            #expect(spaces.status == .accepted, "no composition rules: spaces and emoji are fine")
        }
    }

    @Test func E05_resetSetsThePasswordEndsEverySessionVerifiesTheEmailAndSignsIn() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            let before = try await client.grant()
            let forgot = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            #expect(forgot.status == .accepted)
            let mail = try #require(try await fixture.mails(count: 1).first)
            #expect(mail.action == "recovery" && mail.subject == "Reset your Peated password")
            #expect(try #require(mail.link).hasPrefix("http://127.0.0.1:0/reset-password?token=ghm_"))
            let reset = try await client.postJSON(
                "/api/auth/password/reset", #"{"token":"\#(mail.token ?? "")","password":"\#(Self.newPassword)"}"#
            )
            #expect(reset.status == .ok && reset.headers[.cacheControl] == "no-store")
            let after = try reset.decoded(TokenGrant.self)
            #expect(try await client.me(after.accessToken).status == .ok, "the device that reset is signed in")
            #expect(try await client.me(before.accessToken).status == .unauthorized, "older sessions end")
            #expect(try await client.refresh(before.refreshToken).status == .unauthorized)
            #expect(try await client.login().status == .unauthorized, "the old password no longer works")
            #expect(try await client.login(Fixture.email, Self.newPassword).status == .ok)
            let reused = try await client.postJSON(
                "/api/auth/password/reset", #"{"token":"\#(mail.token ?? "")","password":"another good passphrase"}"#
            )
            #expect(reused.status == .gone)
            #expect(try reused.decoded(ErrorBody.self).error == "link_expired")
        }
    }

    @Test func E06_forgotAnswersTheSameForAnUnknownAddressAndMailsNothing() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            let unknown = try await client.postJSON("/api/auth/password/forgot", #"{"email":"nobody@example.com"}"#)
            let known = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            #expect(unknown.status == known.status && known.status == .accepted)
            #expect(String(buffer: unknown.body) == String(buffer: known.body).replacingOccurrences(of: Fixture.email, with: "nobody@example.com"))
            #expect(try await fixture.mails(count: 1).map(\.to) == [Fixture.email])
            try await Task.sleep(for: .milliseconds(200))
            #expect(try fixture.mails().count == 1, "nothing goes to an address without an account")
        }
    }

    @Test func E07_aMailedCodeAllowsFiveTriesAndANewerMailReplacesTheOlder() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            let first = try #require(try await fixture.mails(count: 1).first)
            fixture.clock.advance(by: 61)
            _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            let second = try #require(try await fixture.mails(count: 2).last)
            let old = try await client.postJSON("/api/auth/password/reset", #"{"token":"\#(first.token ?? "")","password":"\#(Self.newPassword)"}"#)
            #expect(old.status == .gone, "the newer mail replaced the older")
            let wrongCode = second.code == "000000" ? "111111" : "000000"
            for left in [4, 3, 2, 1] {
                let wrong = try await client.postJSON(
                    "/api/auth/password/reset", #"{"email":"\#(Fixture.email)","code":"\#(wrongCode)","password":"\#(Self.newPassword)"}"#
                )
                #expect(wrong.status == .badRequest)
                #expect(try wrong.decoded(ErrorBody.self).message == "Incorrect code. \(left) \(left == 1 ? "attempt" : "attempts") left.")
            }
            let fifth = try await client.postJSON(
                "/api/auth/password/reset", #"{"email":"\#(Fixture.email)","code":"\#(wrongCode)","password":"\#(Self.newPassword)"}"#
            )
            #expect(try fifth.decoded(ErrorBody.self).error == "code_attempts_exceeded")
            fixture.clock.advance(by: 1)  // five wrong codes are a failure streak: the next try waits a second
            let right = try await client.postJSON(
                "/api/auth/password/reset", #"{"email":"\#(Fixture.email)","code":"\#(second.code ?? "")","password":"\#(Self.newPassword)"}"#
            )
            #expect(try right.decoded(ErrorBody.self).error == "code_attempts_exceeded", "a burned code stays burned")
        }
    }

    @Test func E08_oneMailPerRecipientAMinuteIs429WithRetryAfter() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            for address in [Fixture.email, "nobody@example.com"] {
                #expect(try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(address)"}"#).status == .accepted)
                let soon = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(address)"}"#)
                #expect(soon.status == .tooManyRequests, "counted alike whether or not \(address) has an account")
                #expect(try soon.decoded(ErrorBody.self).error == "rate_limited")
                #expect(Int(soon.headers[.retryAfter] ?? "") == 60)
            }
            fixture.clock.advance(by: 60)
            #expect(try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#).status == .accepted)
        }
    }

    @Test func E09_aResetClearsTheAccountsSignInBackOff() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            for _ in 0..<5 { _ = try await client.login(Fixture.email, "wrong password") }
            #expect(try await client.login(Fixture.email, "wrong password").status == .tooManyRequests)
            fixture.clock.advance(by: 2)
            _ = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            let mail = try #require(try await fixture.mails(count: 1).first)
            let reset = try await client.postJSON(
                "/api/auth/password/reset", #"{"email":"\#(Fixture.email)","code":"\#(mail.code ?? "")","password":"\#(Self.newPassword)"}"#
            )
            #expect(reset.status == .ok)
            #expect(try await client.login(Fixture.email, Self.newPassword).status == .ok, "no back-off after a reset")
        }
    }

    @Test func E10_changingThePasswordEndsTheOtherSessionsAndKeepsThisOne() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            let this = try await client.grant()
            let other = try await client.grant()
            let body = #"{"current_password":"\#(Fixture.password)","password":"\#(Self.newPassword)"}"#
            let wrong = try await client.postJSON(
                "/api/auth/password", #"{"current_password":"nope","password":"\#(Self.newPassword)"}"#,
                headers: [.authorization: "Bearer \(this.accessToken)"]
            )
            #expect(wrong.status == .unauthorized)
            let weak = try await client.postJSON(
                "/api/auth/password", #"{"current_password":"\#(Fixture.password)","password":"password"}"#,
                headers: [.authorization: "Bearer \(this.accessToken)"]
            )
            #expect(weak.status == .badRequest)
            #expect(try weak.decoded(ErrorBody.self).error == "weak_password")
            let changed = try await client.postJSON("/api/auth/password", body, headers: [.authorization: "Bearer \(this.accessToken)"])
            #expect(changed.status == .noContent)
            #expect(try await client.me(this.accessToken).status == .ok)
            #expect(try await client.refresh(this.refreshToken).status == .ok, "this session goes on")
            #expect(try await client.me(other.accessToken).status == .unauthorized)
            #expect(try await client.refresh(other.refreshToken).status == .unauthorized)
            #expect(try await client.login(Fixture.email, Self.newPassword).status == .ok)
        }
    }

    @Test func E11_resendMailsOnlyUnverifiedAccountsAndAlwaysAnswers202() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            _ = try await client.postJSON("/api/auth/signup", Self.signUpBody())
            _ = try await fixture.mails(count: 1)
            fixture.clock.advance(by: 61)
            for address in [Self.newEmail, Fixture.email, "nobody@example.com"] {
                let resend = try await client.postJSON("/api/auth/email/resend", #"{"email":"\#(address)"}"#)
                #expect(resend.status == .accepted, "\(address)")
            }
            let mails = try await fixture.mails(count: 2)
            #expect(mails.map(\.to) == [Self.newEmail, Self.newEmail] && mails.last?.action == "email")
            try await Task.sleep(for: .milliseconds(200))
            #expect(try fixture.mails().count == 2, "a verified account and an unknown address get nothing")
        }
    }

    @Test func E12_withoutTheAppsAccountsOptionsTheRoutesRefuseAndLoginIgnoresVerification() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let signUp = try await client.postJSON("/api/auth/signup", Self.signUpBody())
            #expect(signUp.status == .forbidden)
            #expect(try signUp.decoded(ErrorBody.self).error == "feature_disabled")
            let forgot = try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#)
            #expect(forgot.status == .forbidden)
            #expect(try forgot.decoded(ErrorBody.self).error == "feature_disabled")
        }
        _ = try await fixture.withAdministration {
            try await $0.create(email: "unverified@example.com", name: PersonName(full: "Un Verified"), password: Fixture.password, emailVerified: false)
        }
        try await fixture.test { client in
            let login = try await client.login("unverified@example.com", Fixture.password)
            #expect(login.status == .ok, "seed 000 asks for no verification")
        }
    }

    @Test func E14_signUpsAndMailsPerAddressAndTheHourlyBudgetAreLimited() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let limited: (inout GatehouseConfiguration) -> Void = {
            Self.accountsOn(fixture)(&$0)
            $0.mailPolicy.signUpsPerAddressPerHour = 2
            $0.mailPolicy.mailsPerHour = 3
            $0.mailPolicy.mailsPerDomainPerHour = 3  // every address here is at example.com: this test is about the whole budget
        }
        try await fixture.test(limited) { client in
            for index in 0..<2 {
                #expect(try await client.postJSON("/api/auth/signup", Self.signUpBody("a\(index)@example.com")).status == .accepted)
            }
            let third = try await client.postJSON("/api/auth/signup", Self.signUpBody("a2@example.com"))
            #expect(third.status == .tooManyRequests && third.headers[.retryAfter] == "3600")
            #expect(try await fixture.mails(count: 2).count == 2)
            // The budget (3 an hour) is spent as mail leaves, so the answer never says whether a mail went.
            #expect(try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#).status == .accepted)
            #expect(try await fixture.mails(count: 3).count == 3)
            fixture.clock.advance(by: 61)
            #expect(try await client.postJSON("/api/auth/password/forgot", #"{"email":"\#(Fixture.email)"}"#).status == .accepted)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try fixture.mails().count == 3, "the fourth mail this hour was dropped")
        }
    }

    @Test func E13_badInputIsA4xxJSONAnswerNeverA500() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.accountsOn(fixture)) { client in
            let huge = String(repeating: "a", count: 5000)
            for (path, body) in [
                ("/api/auth/signup", #"{"email":"x@example.com","password":"good passphrase"}"#),
                ("/api/auth/signup", #"{"email":"not an email","password":"good passphrase","name":"A"}"#),
                ("/api/auth/signup", #"{"email":"\#(huge)@example.com","password":"good passphrase","name":"A"}"#),
                ("/api/auth/signup", #"{"email":"x@example.com","password":"good passphrase","name":"\u0000\u202e"}"#),
                ("/api/auth/email/verify", #"{"token":"a","email":"b","code":"c"}"#),
                ("/api/auth/email/verify", #"{"email":"x@example.com"}"#),
                ("/api/auth/email/verify", #"{"token":"\#(huge)"}"#),
                ("/api/auth/password/reset", #"{"token":"t"}"#),
                ("/api/auth/password/forgot", #"{"email":42}"#),
                ("/api/auth/email/resend", "not json"),
            ] {
                let response = try await client.postJSON(path, body)
                #expect((400..<500).contains(response.status.code), "\(path) \(body.prefix(60))")
                #expect(try response.decoded(ErrorBody.self).error.isEmpty == false)
            }
        }
    }
}

/// One line of the mail outbox.
struct MailLine: Decodable {
    let to: String
    let action: String
    let subject: String
    let text: String
    let html: String
    let link: String?
    let code: String?

    /// The token the link carries.
    var token: String? { link.flatMap { URLComponents(string: $0)?.queryItems?.first { $0.name == "token" }?.value } }
}

extension Fixture {
    var mailOutbox: String { directory.appendingPathComponent("mail-outbox.jsonl").path }

    /// The lines in the outbox file: one per mail.
    func mailLines() -> Int {
        guard let data = FileManager.default.contents(atPath: mailOutbox) else { return 0 }
        return data.split(separator: UInt8(ascii: "\n")).count
    }

    func mails() throws -> [MailLine] {
        guard let text = try? String(contentsOfFile: mailOutbox, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(MailLine.self, from: Data($0.utf8)) }
    }

    /// The outbox once it holds `count` mails (mail leaves after the answer), or as it is after 5 s.
    ///
    /// While it waits it counts lines only, and only when the file has grown: decoding every
    /// mail at every look took about 3 % of the SQLite run's CPU time (`perf record` over the
    /// whole run).
    func mails(count: Int) async throws -> [MailLine] {
        var size: Int?
        for _ in 0..<250 {
            let now = (try? FileManager.default.attributesOfItem(atPath: mailOutbox)[.size] as? Int) ?? 0
            if now != size {
                size = now
                if mailLines() >= count { break }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try mails()
    }
}
