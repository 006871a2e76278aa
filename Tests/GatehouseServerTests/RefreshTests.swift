import Foundation
import GatehouseCore
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /api/auth/refresh`: rotation, the grace window, reuse detection, expiry and revocation.
@Suite struct RefreshTests {
    @Test func refreshRotatesTheToken() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let first = try await client.grant()
            let response = try await client.refresh(first.refreshToken)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let second = try response.decoded(TokenGrant.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.user == first.user)
            #expect(try await client.me(second.accessToken).status == .ok)
        }
    }

    @Test func US3_1_tenConcurrentRefreshesWithOneTokenGetOneSuccessor() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            let successors = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let response = try await client.refresh(grant.refreshToken)
                        try #require(response.status == .ok, "\(response.text)")
                        return try response.decoded(TokenGrant.self).refreshToken
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(successors.count == 1)
            let successor = try #require(successors.first)
            #expect(try await client.refresh(successor).status == .ok)
        }
    }

    @Test func oldTokenWithinGraceWindowGetsTheSameSuccessor() async throws {
        let fixture = try await Fixture()
        let clock = fixture.clock
        try await fixture.test { client in
            let grant = try await client.grant()
            let first = try await client.refresh(grant.refreshToken).decoded(TokenGrant.self)
            clock.advance(by: 10)
            let again = try await client.refresh(grant.refreshToken)
            #expect(again.status == .ok)
            #expect(try again.decoded(TokenGrant.self).refreshToken == first.refreshToken)
        }
    }

    @Test func graceFollowsTheChainWhenTheSuccessorMovedOn() async throws {
        let fixture = try await Fixture()
        let clock = fixture.clock
        try await fixture.test { client in
            let grant = try await client.grant()
            let second = try await client.refresh(grant.refreshToken).decoded(TokenGrant.self)
            clock.advance(by: 2)
            let third = try await client.refresh(second.refreshToken).decoded(TokenGrant.self)
            let late = try await client.refresh(grant.refreshToken)
            #expect(late.status == .ok)
            #expect(try late.decoded(TokenGrant.self).refreshToken == third.refreshToken)
        }
    }

    @Test func reuseAfterGraceWindowRevokesTheWholeSession() async throws {
        let fixture = try await Fixture()
        let clock = fixture.clock
        try await fixture.test { client in
            let grant = try await client.grant()
            let successor = try await client.refresh(grant.refreshToken).decoded(TokenGrant.self)
            clock.advance(by: 11)
            let reused = try await client.refresh(grant.refreshToken)
            #expect(reused.status == .unauthorized)
            #expect(reused.errorBody?.error == "refresh_token_reused")
            let afterRevocation = try await client.refresh(successor.refreshToken)
            #expect(afterRevocation.errorBody?.error == "refresh_token_reused")
            #expect(try await client.me(successor.accessToken).status == .unauthorized)
        }
    }

    @Test func graceWindowIsConfigurable() async throws {
        let fixture = try await Fixture()
        try await fixture.test({ $0.refreshReuseGrace = 0 }) { client in
            let grant = try await client.grant()
            _ = try await client.refresh(grant.refreshToken)
            fixture.clock.advance(by: 0.01)
            #expect(try await client.refresh(grant.refreshToken).errorBody?.error == "refresh_token_reused")
        }
    }

    @Test func Q2_sessionEndsSevenDaysAfterLoginEvenWhenRefreshed() async throws {
        let fixture = try await Fixture()
        let clock = fixture.clock
        try await fixture.test { client in
            var token = try await client.grant().refreshToken
            for _ in 0..<6 {
                clock.advance(by: 24 * 3600)
                token = try await client.refresh(token).decoded(TokenGrant.self).refreshToken
            }
            clock.advance(by: 24 * 3600)
            let expired = try await client.refresh(token)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorBody?.error == "session_expired")
        }
    }

    @Test func unknownRefreshTokenIsRefused() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let response = try await client.refresh("ghr_not-a-token")
            #expect(response.status == .unauthorized)
            #expect(response.errorBody?.error == "invalid_refresh_token")
        }
    }

    @Test func edgeCase_passwordChangeEndsExistingSessions() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            fixture.clock.advance(by: 1)
            try await fixture.withAdministration { try await $0.setPassword("new-password-1", email: Fixture.email) }
            #expect(try await client.refresh(grant.refreshToken).errorBody?.error == "session_revoked")
            #expect(try await client.me(grant.accessToken).status == .unauthorized)
            #expect(try await client.login(Fixture.email, "new-password-1").status == .ok)
        }
    }

    @Test func edgeCase_lockingAnAccountEndsItsSessions() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            try await fixture.withAdministration { try await $0.setLocked(true, email: Fixture.email) }
            let refused = try await client.refresh(grant.refreshToken)
            #expect(refused.status == .forbidden)
            #expect(refused.errorBody?.error == "account_locked")
            #expect(try await client.me(grant.accessToken).status == .unauthorized)
        }
    }

    @Test func edgeCase_deletingAnAccountEndsItsSessions() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            try await fixture.withAdministration { try await $0.delete(email: Fixture.email) }
            #expect(try await client.refresh(grant.refreshToken).errorBody?.error == "invalid_refresh_token")
            #expect(try await client.me(grant.accessToken).status == .unauthorized)
            #expect(try await client.login().errorBody?.error == "invalid_credentials")
        }
    }
}
