import Crypto
import Foundation
import GatehouseCore
import GatehouseSQL
import Testing

/// Issue 37's authenticator-app factors in the core: two-step enrolment, a code working once,
/// unverified factors expiring, the limit, and wrong codes counting into the account's back-off.
@Suite("Second factors: authenticator-app codes")
struct SecondFactorsServiceTests {
    static func code(_ enrolment: SecondFactors.Enrolment, at date: Date, offset: Int64 = 0) throws -> String {
        let totp = TOTP(secret: try #require(Base32.decode(enrolment.secret)))
        return totp.code(forStep: totp.step(at: date) + offset)
    }

    @Test func enrolmentIsTwoStepsAndTheFirstCodeVerifies() async throws {
        try await CoreHarness.with { h in
            let enrolment = try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "Work phone")
            #expect(enrolment.factor.status == .unverified && enrolment.factor.friendlyName == "Work phone")
            #expect(Base32.decode(enrolment.secret)?.count == 20)
            #expect(enrolment.uri == "otpauth://totp/Gatehouse:user%40example.com?secret=\(enrolment.secret)&issuer=Gatehouse")
            let stored = try #require(try await h.repository.factor(id: enrolment.factor.id, userID: h.user.id))
            #expect(!stored.sealedSecret.contains(enrolment.secret), "never stored in plain text")
            #expect(FactorSecret.open(stored.sealedSecret, factorID: stored.id, kek: h.kek) == Base32.decode(enrolment.secret))
            let verified = try await h.factors.checkCode(try Self.code(enrolment, at: h.clock.now), factorID: enrolment.factor.id, userID: h.user.id, from: CoreHarness.client)
            #expect(verified.status == .verified && verified.verifiedAt == h.clock.now)
            #expect(try await h.factors.list(userID: h.user.id).map(\.id) == [enrolment.factor.id])
        }
    }

    @Test func aCodeWorksOnceAndOneStepEitherSide() async throws {
        try await CoreHarness.with { h in
            let enrolment = try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "")
            let id = enrolment.factor.id
            let early = try Self.code(enrolment, at: h.clock.now, offset: -1)
            _ = try await h.factors.checkCode(early, factorID: id, userID: h.user.id, from: CoreHarness.client)
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 0)), "a replay") {
                try await h.factors.checkCode(early, factorID: id, userID: h.user.id, from: CoreHarness.client)
            }
            let late = try Self.code(enrolment, at: h.clock.now, offset: 1)
            _ = try await h.factors.checkCode(late, factorID: id, userID: h.user.id, from: CoreHarness.client)
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 0)), "the current step is older than one accepted") {
                try await h.factors.checkCode(try Self.code(enrolment, at: h.clock.now), factorID: id, userID: h.user.id, from: CoreHarness.client)
            }
            h.clock.advance(90)
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 0)), "two steps late") {
                try await h.factors.checkCode(try Self.code(enrolment, at: h.clock.now, offset: -2), factorID: id, userID: h.user.id, from: CoreHarness.client)
            }
            _ = try await h.factors.checkCode(try Self.code(enrolment, at: h.clock.now), factorID: id, userID: h.user.id, from: CoreHarness.client)
        }
    }

    @Test func unverifiedFactorsExpireAndTheLimitCountsLiveOnes() async throws {
        try await CoreHarness.with({ $0.mfa.maximumFactors = 2 }) { h in
            let first = try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "")
            _ = try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "")
            await #expect(throws: GatehouseError.factorLimitReached(maximum: 2)) {
                try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "")
            }
            h.clock.advance(601)
            #expect(try await h.factors.list(userID: h.user.id).isEmpty)
            await #expect(throws: GatehouseError.notFound, "an expired enrolment takes no code") {
                try await h.factors.checkCode(try Self.code(first, at: h.clock.now), factorID: first.factor.id, userID: h.user.id, from: CoreHarness.client)
            }
            _ = try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "")
        }
    }

    @Test func friendlyNamesFollowTheNameRuleAndFactorsAreTheAccountsOwn() async throws {
        try await CoreHarness.with { h in
            await #expect(throws: GatehouseError.self) {
                try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "Phone\u{202E}enohp")
            }
            let enrolment = try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "Phone")
            await #expect(throws: GatehouseError.notFound) {
                try await h.factors.checkCode(try Self.code(enrolment, at: h.clock.now), factorID: enrolment.factor.id, userID: "another-account", from: CoreHarness.client)
            }
            #expect(try await !h.factors.remove(factorID: enrolment.factor.id, userID: "another-account"))
            #expect(try await h.factors.remove(factorID: enrolment.factor.id, userID: h.user.id))
        }
    }

    @Test func wrongCodesCountIntoTheAccountsBackOffLikeWrongPasswords() async throws {
        try await CoreHarness.with { h in
            let enrolment = try await h.factors.enrol(userID: h.user.id, account: CoreHarness.email, friendlyName: "")
            var throttled = false
            for _ in 0..<20 where !throttled {
                do {
                    _ = try await h.factors.checkCode("000000", factorID: enrolment.factor.id, userID: h.user.id, from: CoreHarness.client)
                } catch GatehouseError.rateLimited {
                    throttled = true
                } catch GatehouseError.codeRejected {}
            }
            #expect(throttled, "wrong codes start the back-off")
            var passwordWaits = false
            do { _ = try await h.signIn() } catch GatehouseError.rateLimited { passwordWaits = true }
            #expect(passwordWaits, "the password sign-in waits too")
        }
    }
}
