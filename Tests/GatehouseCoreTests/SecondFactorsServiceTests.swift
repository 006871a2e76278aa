import Crypto
import Foundation
import GatehouseCore
import GatehouseModel
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

    @Test func enrolmentIsTwoStepsAndTheFirstCodeVerifiesAtAAL2WithRecoveryCodes() async throws {
        try await CoreHarness.with { h in
            let first = try await h.signIn()
            let principal = try await h.principal(of: first)
            #expect(first.grant.mfa == nil, "no hint before a factor exists")
            let enrolment = try await h.factors.enrol(principal, friendlyName: "Work phone")
            #expect(enrolment.factor.status == .unverified && enrolment.factor.friendlyName == "Work phone")
            #expect(Base32.decode(enrolment.secret)?.count == 20)
            #expect(enrolment.uri == "otpauth://totp/Gatehouse:user%40example.com?secret=\(enrolment.secret)&issuer=Gatehouse")
            let stored = try #require(try await h.repository.factor(id: enrolment.factor.id, userID: h.user.id))
            #expect(!stored.sealedSecret.contains(enrolment.secret), "never stored in plain text")
            #expect(FactorSecret.open(stored.sealedSecret, factorID: stored.id, kek: h.kek) == Base32.decode(enrolment.secret))
            let signIn = try await h.answer(enrolment, code: try Self.code(enrolment, at: h.clock.now), as: principal)
            let verified = try #require(try await h.factors.list(userID: h.user.id).first)
            #expect(verified.status == .verified && verified.verifiedAt == h.clock.now)
            let claims = try await h.pipeline.tokens.verify(signIn.grant.accessToken, now: h.clock.now)
            #expect(claims.aal == .aal2)
            #expect(claims.amr?.map(\.method) == [.password, .totp])
            #expect(signIn.grant.recoveryCodes?.count == 10 && Set(signIn.grant.recoveryCodes ?? []).count == 10)
            #expect(try await h.factors.recoveryCodesLeft(userID: h.user.id) == 10)
            await #expect(throws: GatehouseError.sessionEnded, "the aal1 session it replaced is over") {
                try await h.pipeline.authenticate(accessToken: first.grant.accessToken)
            }
        }
    }

    @Test func aCodeWorksOnceAndOneStepEitherSide() async throws {
        try await CoreHarness.with { h in
            var principal = try await h.principal()
            let enrolment = try await h.factors.enrol(principal, friendlyName: "")
            let early = try Self.code(enrolment, at: h.clock.now, offset: -1)
            principal = try await h.principal(of: h.answer(enrolment, code: early, as: principal))
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4)), "a replay") {
                try await h.answer(enrolment, code: early, as: principal)
            }
            let late = try Self.code(enrolment, at: h.clock.now, offset: 1)
            principal = try await h.principal(of: h.answer(enrolment, code: late, as: principal))
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4)), "the current step is older than one accepted") {
                try await h.answer(enrolment, code: try Self.code(enrolment, at: h.clock.now), as: principal)
            }
            h.clock.advance(90)
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4)), "two steps late") {
                try await h.answer(enrolment, code: try Self.code(enrolment, at: h.clock.now, offset: -2), as: principal)
            }
            _ = try await h.answer(enrolment, code: try Self.code(enrolment, at: h.clock.now), as: principal)
        }
    }

    @Test func fiveWrongCodesEndAChallengeAndCountIntoTheBackOff() async throws {
        try await CoreHarness.with { h in
            let principal = try await h.principal()
            let enrolment = try await h.factors.enrol(principal, friendlyName: "")
            let challenge = try await h.factors.challenge(factorID: enrolment.factor.id, for: principal)
            let wrong = h.factors.grant(challengeID: challenge.id, answer: .code("000000"), for: principal)
            var refusals: [GatehouseError] = []
            for _ in 0..<6 {
                do { _ = try await h.pipeline.stepUp(wrong, of: principal, from: CoreHarness.client) } catch let error as GatehouseError {
                    refusals.append(error)
                    h.clock.advance(60)
                }
            }
            let expected: [GatehouseError] = [
                .codeRejected(.incorrect(attemptsLeft: 4)), .codeRejected(.incorrect(attemptsLeft: 3)),
                .codeRejected(.incorrect(attemptsLeft: 2)), .codeRejected(.incorrect(attemptsLeft: 1)), .codeRejected(.exhausted),
                .codeRejected(.expired),
            ]
            #expect(refusals == expected)
            let right = h.factors.grant(challengeID: challenge.id, answer: .code(try Self.code(enrolment, at: h.clock.now)), for: principal)
            await #expect(throws: GatehouseError.codeRejected(.expired), "the ended challenge takes no right code either") {
                try await h.pipeline.stepUp(right, of: principal, from: CoreHarness.client)
            }
            // Six wrong answers and the right code too late: each audited as a refused second factor.
            #expect(h.events.all.filter { if case .signInRefused(_, .totp, .invalidCode, _) = $0 { true } else { false } }.count == 7)
        }
    }

    @Test func wrongCodesCountIntoTheAccountsBackOffLikeWrongPasswords() async throws {
        try await CoreHarness.with { h in
            let principal = try await h.principal()
            let enrolment = try await h.factors.enrol(principal, friendlyName: "")
            var throttled = false
            for _ in 0..<8 where !throttled {
                let challenge = try await h.factors.challenge(factorID: enrolment.factor.id, for: principal)
                for _ in 0..<5 where !throttled {
                    do {
                        _ = try await h.pipeline.stepUp(
                            h.factors.grant(challengeID: challenge.id, answer: .code("000000"), for: principal), of: principal, from: CoreHarness.client
                        )
                    } catch GatehouseError.rateLimited {
                        throttled = true
                    } catch GatehouseError.codeRejected {}
                }
            }
            #expect(throttled, "wrong codes start the back-off")
            var passwordWaits = false
            do { _ = try await h.signIn() } catch GatehouseError.rateLimited { passwordWaits = true }
            #expect(passwordWaits, "the password sign-in waits too")
        }
    }

    @Test func unverifiedFactorsExpireAndTheLimitCountsLiveOnes() async throws {
        try await CoreHarness.with({ $0.mfa.maximumFactors = 2 }) { h in
            let principal = try await h.principal()
            let first = try await h.factors.enrol(principal, friendlyName: "")
            _ = try await h.factors.enrol(principal, friendlyName: "")
            await #expect(throws: GatehouseError.factorLimitReached(maximum: 2)) {
                try await h.factors.enrol(principal, friendlyName: "")
            }
            h.clock.advance(601)
            #expect(try await h.factors.list(userID: h.user.id).isEmpty)
            await #expect(throws: GatehouseError.notFound, "an expired enrolment takes no challenge") {
                try await h.factors.challenge(factorID: first.factor.id, for: principal)
            }
            _ = try await h.factors.enrol(principal, friendlyName: "")
        }
    }

    @Test func friendlyNamesFollowTheNameRuleAndChallengesAreTheAccountsOwn() async throws {
        try await CoreHarness.with { h in
            let principal = try await h.principal()
            await #expect(throws: GatehouseError.self) {
                try await h.factors.enrol(principal, friendlyName: "Phone\u{202E}enohp")
            }
            let enrolment = try await h.factors.enrol(principal, friendlyName: "Phone")
            let other = try await UserAdministration(
                repository: h.repository, numbers: IndianMobiles(), hasher: PasswordHasher(parameters: CoreHarness.argon2), clock: { h.clock.now },
                passwordPolicy: nil
            ).create(email: "other@example.com", name: "Other", password: CoreHarness.password)
            let stranger = try await h.principal(of: h.signIn(other.email ?? "", CoreHarness.password))
            await #expect(throws: GatehouseError.notFound) { try await h.factors.challenge(factorID: enrolment.factor.id, for: stranger) }
            let mine = try await h.factors.challenge(factorID: enrolment.factor.id, for: principal)
            let theirs = h.factors.grant(challengeID: mine.id, answer: .code(try Self.code(enrolment, at: h.clock.now)), for: stranger)
            await #expect(throws: GatehouseError.codeRejected(.expired), "another account's challenge is no challenge") {
                try await h.pipeline.stepUp(theirs, of: stranger, from: CoreHarness.client)
            }
            #expect(try await !h.factors.remove(factorID: enrolment.factor.id, for: stranger))
            #expect(try await h.factors.remove(factorID: enrolment.factor.id, for: principal))
        }
    }
}
