import Foundation
import JWTKit

/// Signs and verifies access tokens (ES256 JWTs) against an injected clock.
public struct TokenIssuer: Sendable {
    let keys: JWTKeyCollection
    /// The signing key; its public half is served as the JWKS.
    public let signingKey: SigningKey
    let issuer: String
    let audience: String
    /// How long an access token lives, in seconds.
    public let lifetime: Int

    /// Creates an issuer.
    /// - Parameters:
    ///   - signingKey: the ES256 key.
    ///   - issuer: the `iss` claim.
    ///   - audience: the `aud` claim; tokens for another audience are rejected.
    ///   - lifetime: seconds until `exp`.
    public init(signingKey: SigningKey, issuer: String, audience: String, lifetime: Int) async {
        keys = JWTKeyCollection()
        await keys.add(ecdsa: signingKey.privateKey, kid: JWKIdentifier(string: signingKey.kid))
        self.signingKey = signingKey
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
    }

    /// Signs a token for a user's session, issued at `now` (rounded down to whole seconds).
    func issue(userID: String, sessionID: String, now: Date) async throws -> String {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = AccessTokenClaims(
            iss: IssuerClaim(value: issuer),
            sub: SubjectClaim(value: userID),
            aud: AudienceClaim(value: [audience]),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(TimeInterval(lifetime))),
            iat: IssuedAtClaim(value: issuedAt),
            sid: sessionID
        )
        return ES256Signature.normalizedToken(try await keys.sign(claims, kid: JWKIdentifier(string: signingKey.kid)))
    }

    /// The claims of a token whose signature, issuer, audience and expiry are all valid at `now`.
    ///
    /// The header must name this server's key (`kid`) and ES256, and the signature must be in
    /// low-S form (``ES256Signature``), so a token has one valid string.
    func verify(_ token: String, now: Date) async throws -> AccessTokenClaims {
        guard let parsed = try? DefaultJWTParser().parse(Array(token.utf8), as: AccessTokenClaims.self) else {
            throw GatehouseError.invalidToken("The access token is malformed or its signature is invalid")
        }
        guard parsed.header.kid == signingKey.kid, parsed.header.alg == "ES256" else {
            throw GatehouseError.invalidToken("The access token was not signed with this service's key")
        }
        guard ES256Signature.isLowS(Array(parsed.signature)) else {
            throw GatehouseError.invalidToken("The access token's signature is not in canonical (low-S) form")
        }
        let claims: AccessTokenClaims
        do {
            claims = try await keys.verify(token, as: AccessTokenClaims.self)
        } catch {
            throw GatehouseError.invalidToken("The access token is malformed or its signature is invalid")
        }
        guard claims.iss.value == issuer, claims.aud.value.contains(audience) else {
            throw GatehouseError.invalidToken("The access token was not issued for this service")
        }
        guard now < claims.exp.value else { throw GatehouseError.invalidToken("The access token has expired") }
        return claims
    }
}
