import Foundation
import GatehouseDelivery
import Hummingbird
import HummingbirdTesting
import Logging
import LoginCore
import Testing

/// Seed 001's GraphQL contract at `/graphql` (FR-004, FR-006), through the real router.
@Suite struct GraphQLRouteTests {
    static let loginMutation = """
        mutation login($email: String!, $password: String!) { login(data: { email: $email, password: $password }) \
        { token user { id email firstName lastName } } }
        """

    static func body(_ query: String, _ variables: [String: String] = [:]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables]), as: UTF8.self)
    }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func firstError(_ response: TestResponse) throws -> (message: String, code: String?) {
        let errors = try #require(try json(response)["errors"] as? [[String: Any]])
        let first = try #require(errors.first)
        return (first["message"] as? String ?? "", (first["extensions"] as? [String: Any])?["code"] as? String)
    }

    @Test func FR004_FR006_loginMutationReturnsTokenAndIdEmailFirstNameLastName() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let response = try await client.postJSON("/graphql", try Self.body(Self.loginMutation, ["email": "USER@example.com", "password": Fixture.password]))
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let login = try #require((try Self.json(response)["data"] as? [String: Any])?["login"] as? [String: Any])
            #expect((login["token"] as? String)?.split(separator: ".").count == 3)
            let user = try #require(login["user"] as? [String: String])
            #expect(user["email"] == Fixture.email && user["firstName"] == "Demo" && user["lastName"] == "User")
            let me = try await client.me(login["token"] as? String ?? "")
            #expect(try me.decoded(SignedInUser.self).id == user["id"], "the GraphQL token works on the REST API")
        }
    }

    @Test func FR009_wrongCredentialsAreINVALID_CREDENTIALSWithTheConfiguredCopy() async throws {
        let fixture = try await Fixture()
        let copy = "Incorrect email or password. Please try again."
        try await fixture.test({ $0.login.messages = MessageCatalogue([.invalidCredentials: copy]) }) { client in
            var bodies: [ByteBuffer] = []
            for email in [Fixture.email, "nobody@example.com"] {
                let response = try await client.postJSON("/graphql", try Self.body(Self.loginMutation, ["email": email, "password": "wrong-password"]))
                #expect(response.status == .ok)
                let error = try Self.firstError(response)
                #expect(error.code == "INVALID_CREDENTIALS" && error.message == copy)
                bodies.append(response.body)
            }
            #expect(bodies[0] == bodies[1], "an unknown email is indistinguishable from a wrong password")
        }
    }

    @Test func meNeedsABearerTokenAndReturnsTheUser() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let query = try Self.body("{ me { email name firstName lastName } }")
            #expect(try Self.firstError(try await client.postJSON("/graphql", query)).code == "UNAUTHENTICATED")
            let token = try await client.grant().accessToken
            let response = try await client.postJSON("/graphql", query, headers: [.authorization: "Bearer \(token)"])
            let me = try #require((try Self.json(response)["data"] as? [String: Any])?["me"] as? [String: String])
            #expect(me == ["email": Fixture.email, "name": "Demo User", "firstName": "Demo", "lastName": "User"])
        }
    }

    @Test func malformedRequestsAreGraphQLErrorsNeverA500() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                (try Self.body("mutation { login(data: {"), .ok, "GRAPHQL_VALIDATION_FAILED"),
                (try Self.body("{ nope }"), .ok, "GRAPHQL_VALIDATION_FAILED"),
                (try Self.body("mutation { login(data: {email: 1, password: 2}) { token } }"), .ok, "GRAPHQL_VALIDATION_FAILED"),
                (try Self.body(Self.loginMutation), .ok, "GRAPHQL_VALIDATION_FAILED"),
                (try Self.body(Self.loginMutation, ["email": "", "password": "x"]), .ok, "BAD_USER_INPUT"),
                ("not json", .badRequest, "GRAPHQL_VALIDATION_FAILED"),
                (#"{"query": 5}"#, .badRequest, "GRAPHQL_VALIDATION_FAILED"),
                (#"{"query": "\#(String(repeating: "{", count: 20_000))"}"#, .badRequest, "BAD_USER_INPUT"),
            ]
            for (body, status, code) in cases {
                let response = try await client.postJSON("/graphql", body)
                #expect(response.status == status, "\(body.prefix(60))")
                #expect(try Self.firstError(response).code == code, "\(body.prefix(60))")
            }
        }
    }

    @Test func oneRequestMayCallLoginOnlyOnce() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let aliased = (0..<5).map { "a\($0): login(data: {email: \"a@b.co\", password: \"x\"}) { token }" }.joined(separator: " ")
            let response = try await client.postJSON("/graphql", try Self.body("mutation { \(aliased) }"))
            #expect(try Self.firstError(response) == ("A request may call login, refresh, signUp or a code mutation only once", "GRAPHQL_VALIDATION_FAILED"))
        }
    }

    @Test func refreshAndLogoutMutationsShareTheRESTSessionRules() async throws {
        let fixture = try await Fixture()
        try await fixture.test { client in
            let grant = try await client.grant()
            let refresh = "mutation($t: String!) { refresh(data: { refreshToken: $t }) { token refreshToken } }"
            let first = try await client.postJSON("/graphql", try Self.body(refresh, ["t": grant.refreshToken]))
            let rotated = try #require((try Self.json(first)["data"] as? [String: Any])?["refresh"] as? [String: String])
            #expect(rotated["refreshToken"] != grant.refreshToken)
            let logout = try await client.postJSON(
                "/graphql", try Self.body("mutation { logout(scope: \"global\") }"), headers: [.authorization: "Bearer \(rotated["token"] ?? "")"]
            )
            #expect((try Self.json(logout)["data"] as? [String: Bool])?["logout"] == true)
            let after = try await client.postJSON("/graphql", try Self.body(refresh, ["t": rotated["refreshToken"] ?? ""]))
            #expect(try Self.firstError(after).code == "SESSION_REVOKED")
        }
    }
}
