import Foundation
import GatehouseCore
import GatehouseModel
import Graphiti

/// Passkeys for GraphQL apps: the same feature services calls as `/api/auth/passkeys/…`.
///
/// WebAuthn's options and credentials are JSON the browser makes and takes as it is
/// (`PublicKeyCredential.parseCreationOptionsFromJSON`, `toJSON()`), so they travel as JSON
/// text rather than as a copy of the WebAuthn types in the schema.
extension GraphQLResolver {
    package struct PasskeyCredentialArguments: Codable {
        let credential: String
        let name: String?
    }

    package struct PasskeyIDArguments: Codable {
        let id: String
        let name: String?
    }

    package func passkeyAuthenticationOptions(context: GraphQLContext, arguments: NoArguments) async throws -> String {
        try Self.jsonText(try await context.services.passkeyService().passkeyAuthenticationOptions(from: context.request.client))
    }

    package func signInWithPasskey(context: GraphQLContext, arguments: PasskeyCredentialArguments) async throws -> AuthPayload {
        let json: PasskeyAssertionJSON = try Self.decode(arguments.credential)
        let signIn = try await context.services.pipeline.signIn(try .passkey(json), from: context.request.client)
        context.deviceToken.withLockedValue { $0 = signIn.deviceToken }
        return AuthPayload(signIn.grant)
    }

    package func passkeyRegistrationOptions(context: GraphQLContext, arguments: NoArguments) async throws -> String {
        try Self.jsonText(try await context.services.passkeyService().passkeyRegistrationOptions(for: try context.principal()))
    }

    package func registerPasskey(context: GraphQLContext, arguments: PasskeyCredentialArguments) async throws -> PasskeySummary {
        let json: PasskeyRegistrationJSON = try Self.decode(arguments.credential)
        let record = try await context.services.passkeyService().registerPasskey(json, name: arguments.name, for: try context.principal())
        return PasskeySummary(record)
    }

    package func passkeys(context: GraphQLContext, arguments: NoArguments) async throws -> [PasskeySummary] {
        try await context.services.passkeyService().passkeys(of: try context.principal().user.id).map(PasskeySummary.init)
    }

    package func renamePasskey(context: GraphQLContext, arguments: PasskeyIDArguments) async throws -> PasskeySummary {
        let principal = try context.principal()
        try await context.services.passkeyService().renamePasskey(arguments.id, to: arguments.name ?? "", for: principal)
        guard let record = try await context.services.passkeyService().passkeys(of: principal.user.id).first(where: { $0.id == arguments.id }) else {
            throw GatehouseError.notFound
        }
        return PasskeySummary(record)
    }

    package func removePasskey(context: GraphQLContext, arguments: PasskeyIDArguments) async throws -> Bool {
        try await context.services.passkeyService().removePasskey(arguments.id, for: try context.principal())
        return true
    }

    static func jsonText(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ text: String) throws -> T {
        guard let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) else {
            throw GatehouseError.invalidRequest("credential must be the JSON of PublicKeyCredential.toJSON()")
        }
        return value
    }
}
