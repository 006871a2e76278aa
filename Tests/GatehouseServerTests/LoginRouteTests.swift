import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Seed 000's contract C2 for `POST /api/auth/login`, and `GET /api/me`.
@Suite struct LoginRouteTests {
    @Test func C2_loginReturnsTokensAndUser() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let response = try await client.login()
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let grant = try response.decoded(TokenGrant.self)
            #expect(grant.expiresIn == 900)
            #expect(grant.user.email == Fixture.email)
            #expect(grant.user.name == Fixture.name)
            #expect(!grant.user.id.isEmpty)
            #expect(grant.accessToken.split(separator: ".").count == 3)
            let raw = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(Set(raw.keys).isSuperset(of: ["access_token", "refresh_token", "expires_in", "user"]))
        }
    }

    @Test func C2_wrongPasswordIs401WithContractBody() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let response = try await client.login(Fixture.email, "wrong-password")
            #expect(response.status == .unauthorized)
            #expect(response.errorBody == ErrorBody(error: "invalid_credentials", message: "Invalid email or password"))
        }
    }

    @Test func unknownEmailGetsTheSameAnswerAsWrongPassword() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let wrongPassword = try await client.login(Fixture.email, "wrong-password")
            let unknownEmail = try await client.login("nobody@example.com", "wrong-password")
            #expect(wrongPassword.status == unknownEmail.status)
            #expect(wrongPassword.text == unknownEmail.text)
            #expect(wrongPassword.headers[.contentType] == unknownEmail.headers[.contentType])
        }
    }

    @Test func FR011_emailIsCaseInsensitiveAndTrimmed() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant("  USER@Example.COM ", Fixture.password)
            #expect(grant.user.email == Fixture.email)
        }
    }

    @Test func meReturnsTheSignedInUser() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            let response = try await client.me(grant.accessToken)
            #expect(response.status == .ok)
            #expect(try response.decoded(SignedInUser.self) == grant.user)
        }
    }

    @Test func meWithoutOrWithBadTokenIs401Json() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let missing = try await client.execute(uri: "/api/me", method: .get)
            #expect(missing.status == .unauthorized)
            #expect(missing.errorBody?.error == "unauthorized")
            #expect(missing.headers[.wwwAuthenticate] == "Bearer")
            for token in ["garbage", "a.b.c", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."] {
                let response = try await client.me(token)
                #expect(response.status == .unauthorized)
                #expect(response.errorBody?.error == "invalid_token")
            }
        }
    }

    @Test func C2_accessTokenExpiresAfter15Minutes() async throws {
        let fixture = try await Fixture()
        let clock = fixture.clock
        try await fixture.test { client in
            let grant = try await client.grant()
            clock.advance(by: 899)
            #expect(try await client.me(grant.accessToken).status == .ok)
            clock.advance(by: 1)
            let expired = try await client.me(grant.accessToken)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorBody?.message == "The access token has expired")
        }
    }

    @Test func lockedAccountIsRefusedOnlyWithTheRightPassword() async throws {
        let fixture = try await Fixture()
        try await fixture.withAdministration { try await $0.setLocked(true, email: Fixture.email) }
        try await fixture.test { client in
            let right = try await client.login()
            #expect(right.status == .forbidden)
            #expect(right.errorBody?.error == "account_locked")
            let wrong = try await client.login(Fixture.email, "wrong-password")
            #expect(wrong.errorBody?.error == "invalid_credentials")
        }
    }

    @Test func unknownRouteIs404Json() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let response = try await client.execute(uri: "/api/nothing", method: .get)
            #expect(response.status == .notFound)
            #expect(response.errorBody?.error == "not_found")
        }
    }
}
