import Foundation
import JWTKit

/// Signs and verifies access tokens (ES256 JWTs) against an injected clock.
public struct TokenIssuer: Sendable {
    package let keys: KeyRing
    package let issuer: String
    package let audience: String
    /// How long an access token lives, in seconds.
    public let lifetime: Int
    /// Tokens already verified by this process.
    package let verified = VerifiedTokens()

    /// Creates an issuer.
    /// - Parameters:
    ///   - keys: the shared signing keys.
    ///   - issuer: the `iss` claim.
    ///   - audience: the `aud` claim; tokens for another audience are rejected.
    ///   - lifetime: seconds until `exp`.
    package init(keys: KeyRing, issuer: String, audience: String, lifetime: Int) {
        self.keys = keys
        self.issuer = issuer
        self.audience = audience
        self.lifetime = lifetime
    }

    /// Signs a token for a user's session, issued at `now` (rounded down to whole seconds).
    package func issue(userID: String, sessionID: String, assurance: SessionAssurance, anonymous: Bool = false, now: Date) async throws -> String {
        let issuedAt = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = AccessTokenClaims(
            iss: IssuerClaim(value: issuer),
            sub: SubjectClaim(value: userID),
            aud: AudienceClaim(value: [audience]),
            exp: ExpirationClaim(value: issuedAt.addingTimeInterval(TimeInterval(lifetime))),
            iat: IssuedAtClaim(value: issuedAt),
            sid: sessionID, aal: assurance.level, amr: assurance.methods, isAnonymous: anonymous ? true : nil
        )
        let (collection, kid) = try await keys.signer()
        return ES256Signature.normalizedToken(try await collection.sign(claims, kid: JWKIdentifier(string: kid)))
    }

    /// The claims of a token whose signature, issuer, audience and expiry are all valid at `now`.
    ///
    /// The header must name an active key (`kid`) and ES256, and the signature must be in
    /// low-S form (``ES256Signature``) and spelled canonically (no padding, no stray low bits in
    /// its last character), so a token has exactly one valid string. The token is parsed
    /// once: the signature is checked over the parsed parts with the named key, rather than
    /// handing the string to jwt-kit's `verify`, which would decode it all again. A token
    /// verified before is not parsed at all (``VerifiedTokens``).
    package func verify(_ token: String, now: Date) async throws -> AccessTokenClaims {
        if let (claims, kid) = verified.lookup(token), keys.isActive(kid) == true {
            guard now < claims.exp.value else { throw GatehouseError.invalidToken("The access token has expired") }
            return claims
        }
        let bytes = Array(token.utf8)
        guard let parsed = try? Self.parser.parse(bytes, as: AccessTokenClaims.self),
              let signed = bytes.lastIndex(of: UInt8(ascii: "."))
        else {
            throw GatehouseError.invalidToken("The access token is malformed or its signature is invalid")
        }
        guard let kid = parsed.header.kid, parsed.header.alg == "ES256", let collection = try await keys.verifier(for: kid),
              let key = try? await collection.getKey(for: JWKIdentifier(string: kid), alg: "ES256")
        else {
            throw GatehouseError.invalidToken("The access token was not signed with this service's key")
        }
        // One spelling of the signature: 86 base64url characters, no padding, no stray low bits.
        guard String(decoding: bytes[bytes.index(after: signed)...], as: UTF8.self) == Data(parsed.signature).base64URLEncoded() else {
            throw GatehouseError.invalidToken("The access token's signature is not in canonical form")
        }
        guard ES256Signature.isLowS(Array(parsed.signature)) else {
            throw GatehouseError.invalidToken("The access token's signature is not in canonical (low-S) form")
        }
        guard (try? key.verify(parsed.signature, signs: bytes[..<signed])) == true else {
            throw GatehouseError.invalidToken("The access token is malformed or its signature is invalid")
        }
        let claims = parsed.payload
        guard claims.iss.value == issuer, claims.aud.value.contains(audience) else {
            throw GatehouseError.invalidToken("The access token was not issued for this service")
        }
        guard now < claims.exp.value else { throw GatehouseError.invalidToken("The access token has expired") }
        verified.keep(token, claims: claims, kid: kid)
        return claims
    }

    private static let parser = DefaultJWTParser()
}
