import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /api/auth/logout` with the local, global and others scopes (seed 001 US3.4).
@Suite struct LogoutTests {
    @Test func US3_4_localLogoutEndsOnlyThisDevice() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let phone = try await client.grant()
            let laptop = try await client.grant()
            let response = try await client.logout(phone.accessToken)
            #expect(response.status == .noContent)
            #expect(try await client.me(phone.accessToken).status == .unauthorized)
            #expect(try await client.refresh(phone.refreshToken).errorBody?.error == "session_revoked")
            #expect(try await client.me(laptop.accessToken).status == .ok)
            #expect(try await client.refresh(laptop.refreshToken).status == .ok)
        }
    }

    @Test func globalLogoutEndsEveryDevice() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let phone = try await client.grant()
            let laptop = try await client.grant()
            #expect(try await client.logout(phone.accessToken, scope: "global").status == .noContent)
            #expect(try await client.me(phone.accessToken).status == .unauthorized)
            #expect(try await client.me(laptop.accessToken).status == .unauthorized)
            #expect(try await client.refresh(laptop.refreshToken).status == .unauthorized)
        }
    }

    @Test func othersLogoutKeepsOnlyThisDevice() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let phone = try await client.grant()
            let laptop = try await client.grant()
            #expect(try await client.logout(phone.accessToken, scope: "others").status == .noContent)
            #expect(try await client.me(phone.accessToken).status == .ok)
            #expect(try await client.me(laptop.accessToken).status == .unauthorized)
        }
    }

    @Test func scopeMayComeInTheBody() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let phone = try await client.grant()
            let laptop = try await client.grant()
            let response = try await client.postJSON(
                "/api/auth/logout", #"{"scope": "global"}"#, headers: [.authorization: "Bearer \(phone.accessToken)"]
            )
            #expect(response.status == .noContent)
            #expect(try await client.me(laptop.accessToken).status == .unauthorized)
        }
    }

    @Test func logoutNeedsAValidToken() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            #expect(try await client.logout("garbage").status == .unauthorized)
            let grant = try await client.grant()
            _ = try await client.logout(grant.accessToken)
            #expect(try await client.logout(grant.accessToken).status == .unauthorized)
        }
    }
}
