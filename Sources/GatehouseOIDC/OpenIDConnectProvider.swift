import Foundation
import GatehouseCore
import Logging

/// The ``ExternalProvider`` for every OpenID Connect issuer (Google, Microsoft, any other):
/// discovery, keys and the token endpoint over HTTP (``OIDCProviderClient``), and ID tokens
/// checked by ``IDTokenVerifier``.
package struct OpenIDConnectProvider: ExternalProvider {
    package let client: OIDCProviderClient
    package let verifier: IDTokenVerifier

    package init(settings: ExternalProviderSettings, logger: Logger, appleSecret: AppleClientSecret? = nil) {
        client = OIDCProviderClient(settings: settings, logger: logger, appleSecret: appleSecret)
        verifier = IDTokenVerifier(provider: client, settings: settings)
    }

    package func authorizationEndpoint(now: Date) async throws -> String {
        try await client.metadata(now: now).authorizationEndpoint
    }

    package func identity(fromCode code: String, redirectURI: String, verifier: String?, nonce: NonceCheck, now: Date) async throws
        -> ExternalIdentity {
        let tokens = try await client.exchange(code: code, redirectURI: redirectURI, verifier: verifier, now: now)
        guard let token = tokens.idToken else { throw ProviderFailure.providerUnavailable }
        var identity = try await self.verifier.verify(token, nonce: nonce, now: now)
        identity.refreshToken = tokens.refreshToken.flatMap { $0.isEmpty || $0.utf8.count > 2048 ? nil : $0 }
        return identity
    }

    package func revoke(refreshToken: String, now: Date) async throws -> Bool {
        try await client.revoke(refreshToken: refreshToken, now: now)
    }

    package func notice(_ signed: String, now: Date) async throws -> ProviderNotice {
        guard client.settings.kind == .apple else { throw ProviderFailure.invalidToken("this provider sends no notices") }
        return try await verifier.appleNotice(signed, now: now)
    }

    package func verify(_ token: String, nonce: NonceCheck, now: Date) async throws -> ExternalIdentity {
        try await self.verifier.verify(token, nonce: nonce, now: now)
    }
}
