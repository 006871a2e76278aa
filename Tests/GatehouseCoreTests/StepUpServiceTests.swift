import Foundation
import GatehouseCore
import GatehouseModel
import Testing

/// Issue 37's assurance levels, recovery codes and step-up rule in the core.
@Suite("Second factors: assurance, recovery codes and step-up")
struct StepUpServiceTests {
    /// Enrols and verifies a factor for the demo account; returns the enrolment and the `aal2` sign-in.
    static func enrolled(_ h: CoreHarness, password: String = CoreHarness.password) async throws -> (SecondFactors.Enrolment, SignIn) {
        let principal = try await h.principal(of: try await h.signIn(CoreHarness.email, password))
        let enrolment = try await h.factors.enrol(principal, friendlyName: "Phone")
        let signIn = try await h.answer(enrolment, code: try SecondFactorsServiceTests.code(enrolment, at: h.clock.now), as: principal)
        return (enrolment, signIn)
    }

    @Test func aSignInOfAnEnrolledAccountIsAAL1WithTheHintAndARefreshKeepsTheLevel() async throws {
        try await CoreHarness.with { h in
            let (enrolment, stepped) = try await Self.enrolled(h)
            let again = try await h.signIn()
            #expect(again.grant.mfa == SecondFactorHint(required: true, factors: [
                FactorSummary(id: enrolment.factor.id, type: "totp", friendlyName: "Phone", status: "verified"),
            ]))
            #expect(try await h.pipeline.tokens.verify(again.grant.accessToken, now: h.clock.now).aal == .aal1)
            h.clock.advance(30)
            let refreshed = try await h.pipeline.refresh(stepped.grant.refreshToken)
            let claims = try await h.pipeline.tokens.verify(refreshed.accessToken, now: h.clock.now)
            #expect(claims.aal == .aal2 && claims.amr?.map(\.method) == [.password, .totp], "a refresh keeps the session's level")
            #expect(refreshed.mfa == nil)
        }
    }

    @Test func sensitiveActionsNeedARecentStepUpOnceAFactorIsVerified() async throws {
        try await CoreHarness.with { h in
            let before = try await h.principal()
            try await h.accounts.changePassword(before, current: CoreHarness.password, new: "a-new-password-1", from: CoreHarness.client)
            let (_, stepped) = try await Self.enrolled(h, password: "a-new-password-1")
            let aal1 = try await h.principal(of: try await h.signIn(CoreHarness.email, "a-new-password-1"))
            await #expect(throws: GatehouseError.stepUpRequired) {
                try await h.accounts.changePassword(aal1, current: "a-new-password-1", new: "a-new-password-2", from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.stepUpRequired) { try await h.factors.enrol(aal1, friendlyName: "") }
            await #expect(throws: GatehouseError.stepUpRequired) { try await h.factors.regenerateRecoveryCodes(for: aal1) }
            await #expect(throws: GatehouseError.stepUpRequired) { try await h.pipeline.logout(aal1, scope: .others) }
            try await h.pipeline.logout(aal1, scope: .local)
            #expect(h.events.all.contains(.stepUpRefused(userID: h.user.id)))
            let aal2 = try await h.principal(of: stepped)
            _ = try await h.factors.regenerateRecoveryCodes(for: aal2)
            h.clock.advance(601)
            await #expect(throws: GatehouseError.stepUpRequired, "ten minutes after the step up, it is needed again") {
                try await h.factors.regenerateRecoveryCodes(for: aal2)
            }
        }
    }

    @Test func recoveryCodesWorkOnceAreAuditedAndMailedAndANewSetEndsTheOld() async throws {
        try await CoreHarness.with { h in
            let (_, stepped) = try await Self.enrolled(h)
            let codes = try #require(stepped.grant.recoveryCodes)
            #expect(codes.allSatisfy { $0.count == 11 && $0.dropFirst(5).first == "-" })
            let aal1 = try await h.principal()
            let challenge = try await h.factors.recoveryChallenge(for: aal1)
            let typed = codes[0].uppercased().replacingOccurrences(of: "-", with: " ")
            let signIn = try await h.pipeline.stepUp(
                h.factors.grant(challengeID: challenge.id, answer: .recoveryCode(typed), for: aal1), of: aal1, from: CoreHarness.client
            )
            let claims = try await h.pipeline.tokens.verify(signIn.grant.accessToken, now: h.clock.now)
            #expect(claims.aal == .aal2 && claims.amr?.last?.method == .recoveryCode)
            #expect(try await h.factors.recoveryCodesLeft(userID: h.user.id) == 9)
            #expect(h.events.all.contains(.recoveryCodeUsed(userID: h.user.id, left: 9)))
            let mail = try #require(try await h.outbox.mails(to: CoreHarness.email).last)
            #expect(mail.action == .recoveryCodeUsed && mail.body.contains("9 are left"))
            #expect(!mail.body.contains(codes[0]), "the code itself is never mailed")

            let again = try await h.principal()
            let second = try await h.factors.recoveryChallenge(for: again)
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4)), "a used code") {
                try await h.pipeline.stepUp(h.factors.grant(challengeID: second.id, answer: .recoveryCode(codes[0]), for: again), of: again, from: CoreHarness.client)
            }
            let fresh = try await h.factors.regenerateRecoveryCodes(for: try await h.principal(of: signIn))
            #expect(Set(fresh).isDisjoint(with: codes) && fresh.count == 10)
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 3)), "the old set stopped working") {
                try await h.pipeline.stepUp(h.factors.grant(challengeID: second.id, answer: .recoveryCode(codes[1]), for: again), of: again, from: CoreHarness.client)
            }
        }
    }

    @Test func aSecondFactorAnswerNeverSignsInOnItsOwn() async throws {
        try await CoreHarness.with { h in
            let principal = try await h.principal()
            let enrolment = try await h.factors.enrol(principal, friendlyName: "")
            let challenge = try await h.factors.challenge(factorID: enrolment.factor.id, for: principal)
            let grant = h.factors.grant(
                challengeID: challenge.id, answer: .code(try SecondFactorsServiceTests.code(enrolment, at: h.clock.now)), for: principal
            )
            await #expect(throws: GatehouseError.unauthenticated) { try await h.pipeline.signIn(grant, from: CoreHarness.client) }
        }
    }

    @Test func aResetByMailKeepsTheFactorsAndLeavesTheSessionAtAAL1() async throws {
        try await CoreHarness.with { h in
            let (enrolment, _) = try await Self.enrolled(h)
            _ = try await h.accounts.requestPasswordReset(email: CoreHarness.email, from: CoreHarness.client)
            let code = try #require(try await h.outbox.mails(to: CoreHarness.email).last?.code)
            let reset = try await h.pipeline.signIn(
                .passwordReset(.code(email: CoreHarness.email, code: code), newPassword: "a brand new passphrase"), from: CoreHarness.client
            )
            #expect(try await h.pipeline.tokens.verify(reset.grant.accessToken, now: h.clock.now).aal == .aal1)
            #expect(reset.grant.mfa?.factors.map(\.id) == [enrolment.factor.id], "the reset session must still answer the factor")
            #expect(try await h.factors.list(userID: h.user.id).map(\.id) == [enrolment.factor.id])
        }
    }

    /// Two answers racing with one first code: one verifies the factor (audited once), ends
    /// the `aal1` session and opens the one `aal2` session, and the recovery codes it shows are
    /// the ones that work; the other is refused and stores nothing of itself.
    @Test func twoAnswersRacingWithOneFirstCodeStepUpOnceAndTheWinnersRecoveryCodesWork() async throws {
        try await CoreHarness.with { h in
            let first = try await h.signIn()
            let principal = try await h.principal(of: first)
            let enrolment = try await h.factors.enrol(principal, friendlyName: "Phone")
            let code = try SecondFactorsServiceTests.code(enrolment, at: h.clock.now)
            var grants: [Grant] = []
            for _ in 0..<2 {
                let challenge = try await h.factors.challenge(factorID: enrolment.factor.id, for: principal)
                grants.append(h.factors.grant(challengeID: challenge.id, answer: .code(code), for: principal))
            }
            let outcomes = await withTaskGroup(of: Result<SignIn, GatehouseError>.self) { group in
                for grant in grants {
                    group.addTask {
                        do { return .success(try await h.pipeline.stepUp(grant, of: principal, from: CoreHarness.client)) } catch {
                            return .failure(error as? GatehouseError ?? .invalidRequest("\(error)"))
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.compactMap { try? $0.get() }
            let refusals = outcomes.compactMap { outcome -> GatehouseError? in if case .failure(let error) = outcome { error } else { nil } }
            #expect(winners.count == 1)
            #expect(refusals.count == 1 && [.codeRejected(.expired), .codeRejected(.incorrect(attemptsLeft: 4))].contains(refusals.first))
            let winner = try #require(winners.first)
            #expect(h.events.all.filter { $0 == .factorVerified(userID: h.user.id, factorID: enrolment.factor.id) }.count == 1)
            await #expect(throws: GatehouseError.sessionEnded) { try await h.pipeline.authenticate(accessToken: first.grant.accessToken) }
            let stepped = try await h.principal(of: winner)
            #expect(stepped.session.assurance.level == .aal2)
            #expect(try await h.factors.recoveryCodesLeft(userID: h.user.id) == 10)
            let recovery = try await h.factors.recoveryChallenge(for: stepped)
            let code0 = try #require(winner.grant.recoveryCodes?.first)
            _ = try await h.pipeline.stepUp(
                h.factors.grant(challengeID: recovery.id, answer: .recoveryCode(code0), for: stepped), of: stepped, from: CoreHarness.client
            )
            #expect(try await h.factors.recoveryCodesLeft(userID: h.user.id) == 9, "the code the winner showed is one that works")
        }
    }

    /// A session stepped up again names each method once, at its latest use, so its `amr` (and
    /// its tokens) stop growing: before, each step-up added an entry.
    @Test func aSessionSteppedUpAgainNamesEachMethodOnceAtItsLatestUse() async throws {
        try await CoreHarness.with { h in
            let (enrolment, stepped) = try await Self.enrolled(h)
            var signIn = stepped
            for _ in 0..<3 {
                h.clock.advance(60)
                let code = try SecondFactorsServiceTests.code(enrolment, at: h.clock.now)
                signIn = try await h.answer(enrolment, code: code, as: try await h.principal(of: signIn))
            }
            let claims = try await h.pipeline.tokens.verify(signIn.grant.accessToken, now: h.clock.now)
            #expect(claims.amr?.map(\.method) == [.password, .totp])
            #expect(claims.amr?.last?.timestamp == Int(h.clock.now.timeIntervalSince1970.rounded(.down)), "the latest use")
        }
    }
}
