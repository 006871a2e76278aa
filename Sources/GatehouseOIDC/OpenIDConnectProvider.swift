import Foundation
import GatehouseCore
import Logging

/// The ``OpenIDProvider`` the server runs with: discovery, keys and the token endpoint over
/// HTTP (``OIDCProviderClient``), and ID tokens checked by ``IDTokenVerifier``.
package struct OpenIDConnectProvider: OpenIDProvider {
    package let client: OIDCProviderClient
    package let verifier: IDTokenVerifier

    package init(settings: ExternalProviderSettings, logger: Logger) {
        client = OIDCProviderClient(settings: settings, logger: logger)
        verifier = IDTokenVerifier(provider: client, settings: settings)
    }

    package func authorizationEndpoint(now: Date) async throws -> String {
        try await client.metadata(now: now).authorizationEndpoint
    }

    package func exchange(code: String, redirectURI: String, verifier: String?, clientID: String, now: Date) async throws -> String {
        try await client.exchange(code: code, redirectURI: redirectURI, verifier: verifier, clientID: clientID, now: now)
    }

    package func verify(_ token: String, nonce: NonceCheck, now: Date) async throws -> ExternalIdentity {
        try await self.verifier.verify(token, nonce: nonce, now: now)
    }
}
