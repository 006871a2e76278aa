import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import GraphQL
import GraphQLSurface
import Hummingbird
import HummingbirdTesting
import LoginCore
import Logging
import SupabaseSurface
import Testing

/// Issue 20: every code the server sends is a case of `GatehouseError`, including the ones no
/// pipeline step raises (no such route, the unexpected) and an operator's refused operation,
/// and each surface renders them to a code of the typed tables, never derived from a status.
@Suite struct VocabularyCompletenessTests {
    static let operatorFailures: [AdministrationError] = [
        .invalidEmail("Please enter a valid email"), .invalidPassword("Password must be at least 8 characters"),
        .invalidName("Enter your name"), .emailTaken("secret-input@example.com"), .noSuchUser("secret-input@example.com"),
        .noSuchAccount("the id secret-input"), .invalidPhone("+91 secret-input"), .phoneTaken("+91 secret-input"),
    ]
    static let every: [GatehouseError] = [.notFound, .methodNotAllowed, .unexpected] + operatorFailures.map { .administration($0) }

    @Test func I20_operatorAndRoutingErrorsHaveTypedCodesOnEverySurface() throws {
        for error in Self.every {
            let rest = APIError(error)
            let graphQL = GraphQLFailure.make(error, messages: MessageCatalogue())
            guard case .string(let raw)? = graphQL.extensions["code"] else { Issue.record("no GraphQL code for \(error)"); continue }
            let graphQLCode = try #require(GraphQLErrorCode(rawValue: raw), "\(raw) is not in GraphQLErrorCode")
            let goTrue = GoTrueError(error)
            switch error {
            case .unexpected:
                #expect(rest.status == .internalServerError && rest.code == .serverError)
                #expect(graphQLCode == .internalServerError && goTrue.errorCode == .unexpectedFailure)
            case .methodNotAllowed:
                #expect(rest.status == .methodNotAllowed && rest.code == .methodNotAllowed)
                #expect(graphQLCode.serverCode == .invalidRequest && goTrue.errorCode == .methodNotAllowed)
            case .notFound:
                #expect(rest.status == .notFound && rest.code == .notFound)
                #expect(graphQLCode.serverCode == .notFound && goTrue.errorCode == .notFound)
            case .administration(.emailTaken):
                #expect(rest.status == .conflict && graphQLCode.serverCode == rest.code)
                // GoTrue's admin API says email_exists; in a sign-in the SDK reads the same code as link_required.
                #expect(goTrue.errorCode == .emailExists)
            default:
                #expect(graphQLCode.serverCode == rest.code, "\(error): GraphQL \(raw), REST \(rest.code)")
                let goTrueServerCode = try #require(goTrue.errorCode.serverCode, "\(error): GoTrue \(goTrue.errorCode)")
                #expect(goTrueServerCode == rest.code || goTrueServerCode == .invalidRequest)
            }
            // The operator's input is the CLI's to show; no network rendering repeats it.
            for message in [rest.message, graphQL.message, goTrue.message] {
                #expect(!message.contains("secret-input"), "\(error) echoes its input: \(message)")
            }
        }
    }

    @Test func I20_whateverARouteThrowsBecomesACaseNeverAStatusDerivedCode() {
        struct Surprise: Error {}
        let logger = Logger(label: "test")
        #expect(GatehouseError.from(HTTPError(.notFound), limit: 1024, logger: logger) == .notFound)
        #expect(GatehouseError.from(HTTPError(.methodNotAllowed), limit: 1024, logger: logger) == .methodNotAllowed)
        #expect(GatehouseError.from(HTTPError(.contentTooLarge), limit: 1024, logger: logger) == .payloadTooLarge(limit: 1024))
        #expect(GatehouseError.from(HTTPError(.badGateway), limit: 1024, logger: logger) == .unexpected)
        #expect(GatehouseError.from(Surprise(), limit: 1024, logger: logger) == .unexpected)
        #expect(GatehouseError.from(GatehouseError.phoneTaken, limit: 1024, logger: logger) == .phoneTaken)
        #expect(
            GatehouseError.from(AdministrationError.phoneTaken("+91 1"), limit: 1024, logger: logger) == .administration(.phoneTaken("+91 1"))
        )
    }

    @Test func I20_noSuchRouteOrFileAnswersFromTheVocabulary() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ $0.supabaseAnonKey = SupabaseRouteTests.anonKey }) { client in
            let rest = try await client.execute(uri: "/api/no-such-route", method: .get)
            #expect(rest.status == .notFound)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: rest.body)) as? [String: Any])
            #expect(body["error"] as? String == ServerErrorCode.notFound.rawValue)
            let asset = try await client.execute(uri: "/assets/no-such-file.css", method: .get)
            #expect(asset.status == .notFound)
            let assetBody = try #require(try JSONSerialization.jsonObject(with: Data(buffer: asset.body)) as? [String: Any])
            #expect(assetBody["error"] as? String == ServerErrorCode.notFound.rawValue)
            // A path no surface routes reaches no surface's middleware: the shared REST shape answers.
            let unrouted = try await client.execute(uri: "/auth/v1/no-such-route", method: .get, headers: SupabaseRouteTests.key)
            #expect(unrouted.status == .notFound)
            let unroutedBody = try #require(try JSONSerialization.jsonObject(with: Data(buffer: unrouted.body)) as? [String: Any])
            #expect(unroutedBody["error"] as? String == ServerErrorCode.notFound.rawValue)
        }
    }
}
