import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseServer
import GatehouseModel
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 24's per-device sessions: a user sees each signed-in device (label, address, last
/// seen, this one marked) and can sign any of them out, on REST and GraphQL.
@Suite struct DeviceListTests {
    static let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
    static let linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36"

    static func signIn(_ client: any TestClientProtocol, agent: String, from address: String) async throws -> TokenGrant {
        let response = try await client.login(Fixture.email, Fixture.password, headers: [.userAgent: agent, .xForwardedFor: address])
        try #require(response.status == .ok)
        return try response.decoded(TokenGrant.self)
    }

    static func sessions(_ client: any TestClientProtocol, _ token: String) async throws -> [DeviceSummary] {
        let response = try await client.execute(uri: "/api/sessions", method: .get, headers: [.authorization: "Bearer \(token)"])
        try #require(response.status == .ok)
        return try response.decoded(DeviceList.self).sessions
    }

    static func end(_ client: any TestClientProtocol, _ id: String, with token: String) async throws -> TestResponse {
        try await client.execute(uri: "/api/sessions/\(id)", method: .delete, headers: [.authorization: "Bearer \(token)"])
    }

    static func trusting(_ configuration: inout GatehouseConfiguration) {
        configuration.trustedProxies = try! TrustedProxies(["127.0.0.0/8"])
    }

    @Test func I24_theListShowsEachDeviceItsAddressAndLastSeenWithThisOneMarkedCurrent() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.trusting, mode: .live) { client in
            let phone = try await Self.signIn(client, agent: Self.iPhone, from: "198.51.100.7")
            fixture.clock.advance(by: 120)
            let laptop = try await Self.signIn(client, agent: Self.linux, from: "203.0.113.9")
            let ended = try await Self.signIn(client, agent: "curl/8.5.0", from: "192.0.2.1")
            #expect(try await client.logout(ended.accessToken).status == .noContent)

            let fromPhone = try await Self.sessions(client, phone.accessToken)
            // Most recently used first; the logged-out session is gone.
            #expect(fromPhone.map(\.device) == ["Linux · Chrome", "iPhone · Safari"])
            #expect(fromPhone.map(\.ipAddress) == ["203.0.113.9", "198.51.100.7"])
            #expect(fromPhone.map(\.current) == [false, true])
            let fromLaptop = try await Self.sessions(client, laptop.accessToken)
            #expect(fromLaptop.map(\.current) == [true, false])
            #expect(fromLaptop[0].lastSeenAt > fromLaptop[1].lastSeenAt)
            let response = try await client.execute(uri: "/api/sessions", method: .get, headers: [.authorization: "Bearer \(phone.accessToken)"])
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }

    @Test func I24_signingADeviceOutStopsItsAccessAndRefreshTokensAtOnce() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test(Self.trusting, mode: .live) { client in
            let phone = try await Self.signIn(client, agent: Self.iPhone, from: "198.51.100.7")
            let laptop = try await Self.signIn(client, agent: Self.linux, from: "203.0.113.9")
            let laptopID = try #require(try await Self.sessions(client, laptop.accessToken).first { $0.current }?.id)
            #expect(try await client.me(laptop.accessToken).status == .ok)

            #expect(try await Self.end(client, laptopID, with: phone.accessToken).status == .noContent)
            // The access token has not expired, but its session has ended.
            #expect(try await client.me(laptop.accessToken).status == .unauthorized)
            let refresh = try await client.refresh(laptop.refreshToken)
            #expect(refresh.status == .unauthorized)
            #expect(try refresh.decoded(ErrorBody.self).error == ServerErrorCode.sessionRevoked.rawValue)
            // The phone is untouched and now alone in the list.
            #expect(try await Self.sessions(client, phone.accessToken).map(\.device) == ["iPhone · Safari"])
            // Ending it again, or a made-up id, says nothing about whether the id exists.
            let again = try await Self.end(client, laptopID, with: phone.accessToken)
            let madeUp = try await Self.end(client, "no-such-session", with: phone.accessToken)
            #expect(again.status == .notFound && madeUp.status == .notFound)
            #expect(try again.decoded(ErrorBody.self) == madeUp.decoded(ErrorBody.self))
        }
    }

    @Test func I24_anotherUsersSessionCannotBeSeenOrEnded() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.withAdministration { try await $0.create(email: "bob@example.com", name: "Bob Jones", password: "bobs-password-1") }
        try await fixture.test { client in
            let ann = try await client.grant()
            let bob = try await client.grant("bob@example.com", "bobs-password-1")
            let bobsID = try #require(try await Self.sessions(client, bob.accessToken).first?.id)
            #expect(try await Self.sessions(client, ann.accessToken).allSatisfy { $0.id != bobsID })
            #expect(try await Self.end(client, bobsID, with: ann.accessToken).status == .notFound)
            #expect(try await client.me(bob.accessToken).status == .ok)
            let anonymous = try await client.execute(uri: "/api/sessions", method: .get)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func I24_graphQLListsAndEndsSessionsLikeREST() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let first = try await client.grant()
            let second = try await client.grant()
            let bearer: HTTPFields = [.authorization: "Bearer \(first.accessToken)"]
            let list = try await client.postJSON("/graphql", try GraphQLRouteTests.body("{ sessions { id device current lastSeenAt } }"), headers: bearer)
            let rows = try #require(try PhoneGraphQLTests.data(list)["sessions"] as? [[String: Any]])
            #expect(rows.count == 2 && rows.filter { $0["current"] as? Bool == true }.count == 1)
            let other = try #require(rows.first { $0["current"] as? Bool == false }?["id"] as? String)
            let end = try await client.postJSON(
                "/graphql", try GraphQLRouteTests.body("mutation($id: String!) { endSession(id: $id) }", ["id": other]), headers: bearer
            )
            #expect(try PhoneGraphQLTests.data(end)["endSession"] as? Bool == true)
            #expect(try await client.me(second.accessToken).status == .unauthorized)
            let again = try await client.postJSON(
                "/graphql", try GraphQLRouteTests.body("mutation($id: String!) { endSession(id: $id) }", ["id": other]), headers: bearer
            )
            #expect(try GraphQLRouteTests.firstError(again).code == "NOT_FOUND")
        }
    }

    @Test(arguments: RepositoryContractTests.Engine.available)
    func I24_liveSessionsLeaveOutRevokedExpiredAndOtherUsersOnEveryEngine(engine: RepositoryContractTests.Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            let (ann, annIdentities) = RepositoryContractTests.user("ann@example.com")
            let (bob, bobIdentities) = RepositoryContractTests.user("bob@example.com")
            try await repositories[0].createUser(ann, identities: annIdentities, passwordHash: nil)
            try await repositories[0].createUser(bob, identities: bobIdentities, passwordHash: nil)
            let now = RepositoryContractTests.now
            func open(_ id: String, _ user: UserRecord, expires: TimeInterval = 3600, seen: TimeInterval? = nil) async throws {
                let session = SessionRecord(
                    id: id, userID: user.id, createdAt: now, expiresAt: now.addingTimeInterval(expires), lastSeenAt: seen.map(now.addingTimeInterval)
                )
                try await repositories[0].createSession(session, credential: .refreshToken(.init(tokenHash: id + "t", sessionID: id, createdAt: now)))
            }
            try await open("old", ann, seen: 10)
            try await open("recent", ann, seen: 50)
            try await open("never-seen", ann)
            try await open("revoked", ann)
            try await open("expired", ann, expires: 30)
            try await open("bobs", bob)
            try await repositories[1].revokeSession(id: "revoked", at: now, reason: .signedOutFromDeviceList)
            let live = try await repositories[1].liveSessions(userID: ann.id, at: now.addingTimeInterval(60))
            #expect(live.map(\.id) == ["recent", "old", "never-seen"])
            #expect(try await repositories[0].session(id: "revoked")?.revokedReason == .signedOutFromDeviceList)
        }
    }
}
