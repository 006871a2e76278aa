import Foundation
import GatehouseCore
import GatehouseModel
import LoginCore
import Testing

/// The one pipeline on real SQLite, without HTTP: every password outcome, the registry of
/// verifiers, limits, sessions and the events each step reports.
@Suite struct SignInPipelineTests {
    @Test func aRightPasswordOpensASessionTheTokenAuthenticates() async throws {
        try await CoreHarness.with { core in
            let signIn = try await core.signIn()
            #expect(signIn.grant.user.email == CoreHarness.email && !signIn.deviceToken.isEmpty)
            let principal = try await core.pipeline.authenticate(accessToken: signIn.grant.accessToken)
            #expect(principal.user.id == core.user.id && principal.session.deviceLabel == "iPhone · Safari")
            guard case .signInSucceeded(core.user.id, principal.session.id, .password) = core.events.all.last else {
                Issue.record("events: \(core.events.all)"); return
            }
        }
    }

    @Test func aPasswordSignInRunsOnAHashingThreadWithAConnectionOfItsOwn() async throws {
        try await CoreHarness.with { core in
            #expect(core.repository.hashingThreadConnections == 0)
            let signIn = try await core.signIn()
            #expect(core.repository.hashingThreadConnections == 1, "its statements ran on the hashing thread's own connection")
            // The session it committed there, the shared connection reads.
            let principal = try await core.pipeline.authenticate(accessToken: signIn.grant.accessToken)
            #expect(principal.session.id == signIn.sessionID)
            await #expect(throws: GatehouseError.invalidCredentials) { try await core.signIn(CoreHarness.email, "wrong-password") }
            let threads = ProcessInfo.processInfo.activeProcessorCount
            #expect((1...threads).contains(core.repository.hashingThreadConnections), "at most one per hashing thread")
        }
    }

    @Test func aWrongPasswordAndAnUnknownEmailAreTheSameRefusalNamingNoAccount() async throws {
        try await CoreHarness.with { core in
            await #expect(throws: GatehouseError.invalidCredentials) { try await core.signIn(CoreHarness.email, "wrong-password") }
            await #expect(throws: GatehouseError.invalidCredentials) { try await core.signIn("nobody@example.com", CoreHarness.password) }
            let refusals = core.events.all.compactMap { event -> (String, String?)? in
                guard case .signInRefused(let account, .password, .invalidCredentials, let userID) = event else { return nil }
                return (account, userID)
            }
            #expect(refusals.count == 2 && refusals.allSatisfy { $0.1 == nil && $0.0.count == 32 } && refusals[0].0 != refusals[1].0)
        }
    }

    @Test func aLockedAccountIsRefusedOnlyAfterItsPasswordWasProved() async throws {
        try await CoreHarness.with { core in
            var locked = core.user
            locked.lockedAt = core.clock.now
            try await core.repository.updateUser(locked)
            await #expect(throws: GatehouseError.invalidCredentials) { try await core.signIn(CoreHarness.email, "wrong-password") }
            await #expect(throws: GatehouseError.accountLocked) { try await core.signIn() }
        }
    }

    @Test func aGrantNoEnabledServiceVerifiesIsRefusedBeforeAnythingIsCounted() async throws {
        try await CoreHarness.with { core in
            await #expect(throws: GatehouseError.methodNotOffered(.phone)) {
                try await core.pipeline.signIn(.phoneCode(verificationID: "ghv_x", code: "123456"), from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.methodNotOffered(.google)) {
                try await core.pipeline.signIn(.provider(.google, .idToken("eyJ.x.y", nonce: nil)), from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.methodNotOffered(SignInMethods.Method(rawValue: "acme-sso"))) {
                try await core.pipeline.signIn(.provider(SignInMethods.Method(rawValue: "acme-sso"), .idToken("eyJ.x.y", nonce: nil)), from: CoreHarness.client)
            }
            let counters = try await core.repository.counters([LimitKey.signInAddress(CoreHarness.client.address).storageKey])
            #expect(counters.isEmpty)
        }
    }

    @Test func anAppWithoutEmailSignInRefusesThePasswordGrant() async throws {
        try await CoreHarness.with({ $0.settings.signInMethods = SignInMethods(methods: [.phone]) }) { core in
            await #expect(throws: GatehouseError.methodNotOffered(.email)) { try await core.signIn() }
        }
    }

    @Test func malformedPasswordsAreRefusedByTheOneShapeCheck() async throws {
        try await CoreHarness.with { core in
            await #expect(throws: GatehouseError.invalidRequest("password must not be empty")) { try await core.signIn(CoreHarness.email, "") }
            await #expect(throws: GatehouseError.invalidRequest("password must be at most 1024 bytes")) {
                try await core.signIn(CoreHarness.email, String(repeating: "p", count: 1025))
            }
        }
    }

    @Test func theAddressLimitRefusesBeforeHashingAndReportsTheLimit() async throws {
        try await CoreHarness.with({ $0.settings.abuse.addressLimit = 2 }) { core in
            _ = try await core.signIn()
            _ = try await core.signIn()
            await #expect(throws: GatehouseError.rateLimited(retryAfter: 300)) { try await core.signIn() }
            guard case .signInThrottled(_, .addressLimit) = core.events.all.last else { Issue.record("\(core.events.all)"); return }
        }
    }

    @Test func aRefreshRotatesAndAStaleTokenAfterTheGraceEndsTheWholeSession() async throws {
        try await CoreHarness.with { core in
            let first = try await core.signIn().grant
            let second = try await core.pipeline.refresh(first.refreshToken)
            #expect(second.refreshToken != first.refreshToken)
            core.clock.advance(60)
            await #expect(throws: GatehouseError.refreshRejected(.reused)) { try await core.pipeline.refresh(first.refreshToken) }
            // The whole session ended with the reuse: its newest token is refused for the same reason.
            await #expect(throws: GatehouseError.refreshRejected(.reused)) { try await core.pipeline.refresh(second.refreshToken) }
        }
    }

    @Test func logoutEndsTheSessionItsTokensNameAtOnce() async throws {
        try await CoreHarness.with { core in
            let grant = try await core.signIn().grant
            let principal = try await core.pipeline.authenticate(accessToken: grant.accessToken)
            try await core.pipeline.logout(principal, scope: .local)
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: grant.accessToken) }
            #expect(core.events.all.last == .sessionEnded(userID: core.user.id, sessionID: principal.session.id, reason: .logoutLocal))
        }
    }

    @Test func aWebSignInReplacesTheSessionTheBrowserHeld() async throws {
        try await CoreHarness.with { core in
            let grant = Grant.password(identifier: CoreHarness.email, password: CoreHarness.password)
            let first = try await core.pipeline.signInToWeb(grant, from: CoreHarness.client, replacing: nil)
            #expect(try await core.pipeline.webPrincipal(sessionID: first.sessionID) != nil)
            let second = try await core.pipeline.signInToWeb(grant, from: CoreHarness.client, replacing: first.sessionID)
            #expect(try await core.pipeline.webPrincipal(sessionID: first.sessionID) == nil)
            #expect(try await core.pipeline.webPrincipal(sessionID: second.sessionID)?.user.id == core.user.id)
        }
    }

    @Test func theDeviceListShowsLiveSessionsAndEndsOneOfThem() async throws {
        try await CoreHarness.with { core in
            let phone = try await core.signIn().grant
            let laptop = try await core.signIn(from: ClientInfo(address: "192.0.2.2", userAgent: "Mozilla/5.0 (Macintosh) Firefox/128.0")).grant
            let asking = try await core.pipeline.authenticate(accessToken: laptop.accessToken)
            let listed = try await core.devices.devices(of: asking)
            #expect(listed.count == 2 && listed.filter(\.isCurrent).map(\.session.id) == [asking.session.id])
            let other = try #require(listed.first { !$0.isCurrent })
            try await core.devices.endSession(other.session.id, for: asking)
            await #expect(throws: GatehouseError.sessionEnded) { try await core.pipeline.authenticate(accessToken: phone.accessToken) }
            await #expect(throws: GatehouseError.notFound) { try await core.devices.endSession(other.session.id, for: asking) }
        }
    }
}
