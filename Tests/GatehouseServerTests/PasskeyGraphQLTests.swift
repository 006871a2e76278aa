import Foundation
import GatehouseModel
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Passkeys through GraphQL (seed 001-style apps): the same pipeline as REST, with WebAuthn's
/// JSON carried as text.
@Suite struct PasskeyGraphQLTests {
    static func data(_ response: TestResponse, _ field: String) throws -> Any? {
        try PhoneGraphQLTests.data(response)[field]
    }

    @Test func GP01_enrolListAndSignInWithAPasskeyOverGraphQL() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let bearer: HTTPFields = [.authorization: "Bearer \(try await client.grant().accessToken)"]
            let options = try await client.postJSON("/graphql", try GraphQLRouteTests.body("mutation { passkeyRegistrationOptions }"), headers: bearer)
            let text = try #require(try Self.data(options, "passkeyRegistrationOptions") as? String)
            let creation = try JSONDecoder().decode(PasskeyCreationOptions.self, from: Data(text.utf8))
            let authenticator = SoftwareAuthenticator(origin: PasskeyRouteTests.origin)
            let credential = try PasskeyRouteTests.json(try await authenticator.register(creation))
            let registered = try await client.postJSON(
                "/graphql",
                try GraphQLRouteTests.body("mutation($c: String!) { registerPasskey(credential: $c, name: \"Pixel\") { id name synced } }", ["c": credential]),
                headers: bearer
            )
            #expect((try Self.data(registered, "registerPasskey") as? [String: Any])?["name"] as? String == "Pixel")
            let list = try await client.postJSON("/graphql", try GraphQLRouteTests.body("{ passkeys { name lastUsedAt } }"), headers: bearer)
            #expect((try Self.data(list, "passkeys") as? [[String: Any]])?.count == 1)
            let request = try await client.postJSON("/graphql", try GraphQLRouteTests.body("mutation { passkeyAuthenticationOptions }"))
            let requestText = try #require(try Self.data(request, "passkeyAuthenticationOptions") as? String)
            let assertion = try await authenticator.authenticate(try JSONDecoder().decode(PasskeyRequestOptions.self, from: Data(requestText.utf8)))
            let signIn = try await client.postJSON(
                "/graphql",
                try GraphQLRouteTests.body("mutation($c: String!) { signInWithPasskey(credential: $c) { token user { email } } }", ["c": try PasskeyRouteTests.json(assertion)])
            )
            let payload = try #require(try Self.data(signIn, "signInWithPasskey") as? [String: Any])
            #expect((payload["user"] as? [String: Any])?["email"] as? String == Fixture.email)
            let replay = try await client.postJSON(
                "/graphql", try GraphQLRouteTests.body("mutation($c: String!) { signInWithPasskey(credential: $c) { token } }", ["c": try PasskeyRouteTests.json(assertion)])
            )
            #expect(try GraphQLRouteTests.firstError(replay).code == "PASSKEY_CHALLENGE_EXPIRED")
        }
    }

    @Test func GP02_badCredentialsAnAnonymousEnrolmentAndAliasedSignInsAreRefused() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let bad = try await client.postJSON("/graphql", try GraphQLRouteTests.body("mutation { signInWithPasskey(credential: \"{}\") { token } }"))
            #expect(try GraphQLRouteTests.firstError(bad).code == "BAD_USER_INPUT")
            let anonymous = try await client.postJSON("/graphql", try GraphQLRouteTests.body("mutation { passkeyRegistrationOptions }"))
            #expect(try GraphQLRouteTests.firstError(anonymous).code == "UNAUTHENTICATED")
            let aliased = try await client.postJSON("/graphql", try GraphQLRouteTests.body("mutation { a: passkeyAuthenticationOptions b: passkeyAuthenticationOptions }"))
            #expect(try GraphQLRouteTests.firstError(aliased).code == "GRAPHQL_VALIDATION_FAILED")
        }
    }
}
