import Crypto
import Foundation
import GatehouseCore
import GatehouseModel
import JWTKit

/// Validates an OpenID Connect ID token and reads the identity it asserts.
///
/// In order: the header must name `RS256` or `ES256` and a `kid`; the key must be the provider's (see
/// ``OIDCProviderClient/keys(for:now:)``); jwt-kit checks the signature and that `aud` names one
/// of our client ids and no untrusted audience; then `iss` must be exact (Microsoft's: its
/// tenant's, see ``ExternalProviderSettings/acceptsMicrosoftIssuer(_:tenantID:discoveredIssuer:)``), `azp` (when present)
/// one of our client ids, `exp` and `iat` within the leeway, the nonce equal in constant time,
/// and `hd` the configured domain. Each refusal is ``ProviderFailure/invalidToken(_:)``
/// naming the check, never the token.
package struct IDTokenVerifier: Sendable {
    package let provider: OIDCProviderClient
    package let settings: ExternalProviderSettings

    package init(provider: OIDCProviderClient, settings: ExternalProviderSettings) {
        self.provider = provider
        self.settings = settings
    }
    package static let maximumBytes = ConfiguredProvider.maximumIDTokenBytes

    /// What a token's `nonce` must be (the core's ``GatehouseCore/NonceCheck``).
    package typealias NonceCheck = GatehouseCore.NonceCheck

    package func verify(_ token: String, nonce: NonceCheck, now: Date) async throws -> ExternalIdentity {
        guard token.utf8.count <= Self.maximumBytes else { throw ProviderFailure.invalidToken("token too large") }
        let keys = try await signingKeys(of: token, now: now)
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(token, as: IDTokenClaims.self, expectedAudiences: settings.clientIDs)
        } catch let error as JWTError {
            throw ProviderFailure.invalidToken(Self.reason(error))
        }
        try await checkIssuer(claims, now: now)
        try check(claims, nonce: nonce, now: now)
        var identity = ExternalIdentity(
            provider: settings.identityProvider, subject: claims.subject.value, email: claims.email.map(EmailAddress.normalized),
            emailVerified: claims.emailVerified?.value ?? false, name: claims.name, picture: claims.picture,
            usableUntil: claims.expires.value.addingTimeInterval(settings.leeway)
        )
        identity.isPrivateEmail = claims.isPrivateEmail?.value ?? false
        return identity
    }

    private func checkIssuer(_ claims: IDTokenClaims, now: Date) async throws {
        let iss = claims.issuer.value
        if settings.kind == .microsoft {
            let discovered = try await provider.metadata(now: now).issuer
            guard settings.acceptsMicrosoftIssuer(iss, tenantID: claims.tenantID, discoveredIssuer: discovered) else {
                throw ProviderFailure.invalidToken("iss is not the tenant's")
            }
        } else {
            guard settings.acceptedIssuers.contains(iss) else { throw ProviderFailure.invalidToken("iss is not the provider") }
        }
    }

    private func check(_ claims: IDTokenClaims, nonce: NonceCheck, now: Date) throws {
        if let azp = claims.authorizedPresenter, !settings.clientIDs.contains(azp) {
            throw ProviderFailure.invalidToken("azp is not one of our clients")
        }
        guard claims.expires.value.addingTimeInterval(settings.leeway) > now else { throw ProviderFailure.invalidToken("token expired") }
        guard claims.issuedAt.value <= now.addingTimeInterval(settings.leeway) else {
            throw ProviderFailure.invalidToken("token issued in the future")
        }
        if let domain = settings.hostedDomain, claims.hostedDomain != domain {
            throw ProviderFailure.invalidToken("hd is not the allowed domain")
        }
        switch nonce {
        case .exact(let expected):
            guard let actual = claims.nonce, ConstantTime.equal(actual, expected) else {
                throw ProviderFailure.invalidToken("nonce mismatch")
            }
        case .hashed(let raw?):
            let hashed = SHA256.hash(data: Data(raw.utf8)).hexEncoded
            guard let actual = claims.nonce, ConstantTime.equal(actual, hashed) else {
                throw ProviderFailure.invalidToken("nonce mismatch")
            }
        case .hashed(nil):
            guard claims.nonce == nil else { throw ProviderFailure.invalidToken("the token has a nonce but none was sent") }
        case .unchecked:
            break
        }
    }

    /// The provider's keys for a token whose header names `RS256` or `ES256` and a `kid`.
    func signingKeys(of token: String, now: Date) async throws -> JWTKeyCollection {
        let header = try Self.header(of: token)
        guard header.alg == "RS256" || header.alg == "ES256" else { throw ProviderFailure.invalidToken("alg must be RS256 or ES256") }
        guard let kid = header.kid, !kid.isEmpty else { throw ProviderFailure.invalidToken("kid is required") }
        return try await provider.keys(for: kid, now: now)
    }

    package struct Header: Decodable {
        package let alg: String?
        package let kid: String?
    }

    package static func header(of token: String) throws -> Header {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[0])),
              let header = try? JSONDecoder().decode(Header.self, from: data)
        else { throw ProviderFailure.invalidToken("malformed token") }
        return header
    }

    private static func reason(_ error: JWTError) -> String {
        switch error.errorType {
        case .signatureVerificationFailed: "signature does not verify"
        case .claimVerificationFailure: "aud or sub is not acceptable"
        default: "token does not verify"
        }
    }
}
