import Foundation
import GatehouseCore
import JWTKit

/// Sign in with Apple's client secret: a JWT the server signs ES256 with the team's `.p8` key.
///
/// Header `kid` the key id; claims `iss` the team id, `sub` the Services ID, `aud` Apple's
/// issuer, `iat` now and `exp` at most six months later (Apple's limit). One is made, cached
/// and reused until a day before it expires, then renewed; the key never leaves the process.
package actor AppleClientSecret {
    /// How long a secret is valid: 30 days, well inside Apple's six months.
    package static let lifetime: TimeInterval = 30 * 24 * 3600
    /// A secret this close to its end is renewed.
    package static let renewal: TimeInterval = 24 * 3600

    let keys: JWTKeyCollection
    let key: AppleSigningKey
    let servicesID: String
    let audience: String
    private var cached: (secret: String, expires: Date)?

    /// Reads the key; a key that is not a P-256 private key in PEM is refused.
    package init(key: AppleSigningKey, servicesID: String, audience: String) async throws {
        let privateKey = try Self.privateKey(key.privateKeyPEM)
        keys = JWTKeyCollection()
        await keys.add(ecdsa: privateKey, kid: JWKIdentifier(string: key.keyID))
        self.key = key
        self.servicesID = servicesID
        self.audience = audience
    }

    /// The team's key, or the one-line refusal of a file that is not one.
    package static func privateKey(_ pem: String) throws -> ES256PrivateKey {
        do {
            return try ES256PrivateKey(pem: pem)
        } catch {
            throw ExternalProviderError("the Apple key is not a P-256 private key in PEM (an AuthKey_….p8 file)")
        }
    }

    /// The secret to send now: the cached one, or a new one when it is within a day of expiring.
    package func current(now: Date) async throws -> String {
        if let cached, cached.expires.timeIntervalSince(now) > Self.renewal { return cached.secret }
        let expires = now.addingTimeInterval(Self.lifetime)
        let claims = AppleClientSecretClaims(
            iss: IssuerClaim(value: key.teamID), iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: expires),
            aud: AudienceClaim(value: audience), sub: SubjectClaim(value: servicesID)
        )
        let secret = try await keys.sign(claims, kid: JWKIdentifier(string: key.keyID))
        cached = (secret, expires)
        return secret
    }
}

/// The claims of Apple's client secret.
package struct AppleClientSecretClaims: JWTPayload {
    package let iss: IssuerClaim
    package let iat: IssuedAtClaim
    package let exp: ExpirationClaim
    package let aud: AudienceClaim
    package let sub: SubjectClaim

    package func verify(using _: some JWTAlgorithm) throws {}
}
