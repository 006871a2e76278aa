import Foundation
import GatehouseModel
import Hummingbird
import HummingbirdTesting
import Testing

/// Seed 004's phone sign-in through GraphQL (for seed 001-style apps): the same codes, limits
/// and pipeline as REST.
@Suite struct PhoneGraphQLTests {
    static let send = "mutation { sendPhoneCode(data: { phone: \"98765 43210\", country: \"IN\" }) { verificationId phoneMasked expiresIn resendAfter codeLength } }"

    static func verify(_ id: String, _ code: String) -> String {
        "mutation { verifyPhoneCode(data: { verificationId: \"\(id)\", code: \"\(code)\" }) { token refreshToken user { id name } } }"
    }

    static func data(_ response: TestResponse) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        return object["data"] as? [String: Any] ?? [:]
    }

    @Test func G_sendThenVerifyPhoneCodeSignsInLikeLogin() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(PhoneSignInTests.phoneOn(fixture)) { client in
            let sent = try await client.postJSON("/graphql", try GraphQLRouteTests.body(Self.send))
            let code = try #require(try Self.data(sent)["sendPhoneCode"] as? [String: Any])
            #expect(code["phoneMasked"] as? String == "+91 ••••• •3210" && code["codeLength"] as? Int == 6)
            let id = try #require(code["verificationId"] as? String)
            let message = try #require(fixture.outboxMessages().last)
            let wrong = message.code == "000000" ? "111111" : "000000"
            let refused = try await client.postJSON("/graphql", try GraphQLRouteTests.body(Self.verify(id, wrong)))
            #expect(try GraphQLRouteTests.firstError(refused).code == "INVALID_CODE")
            let verified = try await client.postJSON("/graphql", try GraphQLRouteTests.body(Self.verify(id, message.code)))
            let payload = try #require(try Self.data(verified)["verifyPhoneCode"] as? [String: Any])
            #expect((payload["token"] as? String)?.split(separator: ".").count == 3)
            #expect((payload["user"] as? [String: Any])?["name"] as? String == "Asha Rao")
        }
    }

    @Test func G_unknownNumberAndAliasedSendsAreRefused() async throws {
        let fixture = try await PhoneSignInTests.fixture()
        try await fixture.test(PhoneSignInTests.phoneOn(fixture)) { client in
            let unknown = "mutation { sendPhoneCode(data: { phone: \"+919123456789\" }) { verificationId } }"
            let response = try await client.postJSON("/graphql", try GraphQLRouteTests.body(unknown))
            #expect(try GraphQLRouteTests.firstError(response) == ("No account found. Create one?", "ACCOUNT_NOT_FOUND"))
            let aliased = "mutation { a: sendPhoneCode(data: { phone: \"98765 43210\" }) { verificationId } b: sendPhoneCode(data: { phone: \"98765 43210\" }) { verificationId } }"
            let twice = try await client.postJSON("/graphql", try GraphQLRouteTests.body(aliased))
            #expect(try GraphQLRouteTests.firstError(twice).code == "GRAPHQL_VALIDATION_FAILED")
            #expect(try fixture.outboxMessages().isEmpty)
        }
    }
}
