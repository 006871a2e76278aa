import Crypto
import Foundation
import GatehouseModel
import JWTKit

/// Validates an OpenID Connect ID token and reads the identity it asserts.
///
/// In order: the header must name `RS256` and a `kid`; the key must be the provider's (see
/// ``OIDCProviderClient/keys(for:now:)``); jwt-kit checks the signature and that `aud` names one
/// of our client ids and no untrusted audience; then `iss` must be exact, `azp` (when present)
/// one of our client ids, `exp` and `iat` within the leeway, the nonce equal in constant time,
/// and `hd` the configured domain. Each refusal is ``ProviderFailure/invalidToken(_:)``
/// naming the check, never the token.
struct IDTokenVerifier: Sendable {
    let provider: OIDCProviderClient
    let settings: ExternalProviderSettings
    static let maximumBytes = 16 * 1024

    /// What a token's `nonce` must be.
    enum NonceCheck: Sendable, Equatable {
        /// Exactly this value (our own flows).
        case exact(String)
        /// GoTrue's rule for native apps: the token carries the SHA-256 (hex) of the nonce the app
        /// sent, or, when the app sent none, the token carries none either.
        case hashed(String?)
        /// The app did not say (seed 002's code exchange: the code itself was bound by our secret).
        case unchecked
    }

    func verify(_ token: String, nonce: NonceCheck, now: Date) async throws -> ExternalIdentity {
        guard token.utf8.count <= Self.maximumBytes else { throw ProviderFailure.invalidToken("token too large") }
        let header = try Self.header(of: token)
        guard header.alg == "RS256" else { throw ProviderFailure.invalidToken("alg must be RS256") }
        guard let kid = header.kid, !kid.isEmpty else { throw ProviderFailure.invalidToken("kid is required") }
        let keys = try await provider.keys(for: kid, now: now)
        let claims: IDTokenClaims
        do {
            claims = try await keys.verify(token, as: IDTokenClaims.self, expectedAudiences: settings.clientIDs)
        } catch let error as JWTError {
            throw ProviderFailure.invalidToken(Self.reason(error))
        }
        try check(claims, nonce: nonce, now: now)
        return ExternalIdentity(
            provider: .google, subject: claims.subject.value, email: claims.email.map(EmailAddress.normalized),
            emailVerified: claims.emailVerified?.value ?? false, name: claims.name, picture: claims.picture,
            usableUntil: claims.expires.value.addingTimeInterval(settings.leeway)
        )
    }

    private func check(_ claims: IDTokenClaims, nonce: NonceCheck, now: Date) throws {
        guard settings.acceptedIssuers.contains(claims.issuer.value) else { throw ProviderFailure.invalidToken("iss is not the provider") }
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

    struct Header: Decodable {
        let alg: String?
        let kid: String?
    }

    static func header(of token: String) throws -> Header {
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

/// Who an external provider says signed in: its `sub`, and the email and name it vouches for.
struct ExternalIdentity: Sendable, Equatable {
    let provider: IdentityProvider
    let subject: String
    /// NFKC-normalised and case-folded, like every email Gatehouse compares.
    let email: String?
    let emailVerified: Bool
    let name: String?
    let picture: String?
    /// The token's `exp` plus the leeway: how long the token could be replayed.
    var usableUntil: Date = .distantFuture

    /// The same person at the same provider; the presenting token's lifetime is about the
    /// token, not the identity, and is left out.
    static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.provider, lhs.subject, lhs.email, lhs.emailVerified, lhs.name, lhs.picture)
            == (rhs.provider, rhs.subject, rhs.email, rhs.emailVerified, rhs.name, rhs.picture)
    }
}
