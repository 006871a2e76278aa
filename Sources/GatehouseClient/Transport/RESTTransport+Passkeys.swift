import Foundation
import GatehouseModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension RESTTransport: PasskeyTransport {
    private struct Options<T: Decodable>: Decodable { let options: T }

    public func passkeyAuthenticationOptions() async throws -> PasskeyRequestOptions {
        let data = try await send(JSONExchange.request(url(paths.passkeys + "/authentication/options")))
        return try JSONExchange.decode(Options<PasskeyRequestOptions>.self, from: data, expected: "passkey options").options
    }

    public func passkeyRegistrationOptions(accessToken: String) async throws -> PasskeyCreationOptions {
        let data = try await send(JSONExchange.request(url(paths.passkeys + "/registration/options"), bearer: accessToken))
        return try JSONExchange.decode(Options<PasskeyCreationOptions>.self, from: data, expected: "passkey options").options
    }

    public func registerPasskey(_ credential: PasskeyRegistrationJSON, name: String?, accessToken: String) async throws -> PasskeySummary {
        struct Body: Encodable {
            let credential: PasskeyRegistrationJSON
            let name: String?
        }
        let request = try JSONExchange.request(
            url(paths.passkeys + "/registration/verify"), body: Body(credential: credential, name: name), bearer: accessToken
        )
        return try JSONExchange.decode(PasskeySummary.self, from: try await send(request), expected: "passkey")
    }

    public func passkeys(accessToken: String) async throws -> [PasskeySummary] {
        struct List: Decodable { let passkeys: [PasskeySummary] }
        let request = try JSONExchange.request(url(paths.passkeys), method: "GET", bearer: accessToken)
        return try JSONExchange.decode(List.self, from: try await send(request), expected: "passkeys").passkeys
    }

    public func deletePasskey(id: String, accessToken: String) async throws {
        _ = try await send(JSONExchange.request(url(paths.passkeys).appendingPathComponent(id), method: "DELETE", bearer: accessToken))
    }

    /// `POST …/authentication/verify` with the assertion: the passkey grant.
    func passkeyToken(_ credential: PasskeyAssertionJSON) async throws -> TokenResponse {
        struct Body: Encodable { let credential: PasskeyAssertionJSON }
        return try tokens(await send(JSONExchange.request(url(paths.passkeys + "/authentication/verify"), body: Body(credential: credential))))
    }
}
