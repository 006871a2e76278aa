import Foundation
import GatehouseModel
import JWTKit

/// The claims of an access token: iss, sub, aud, exp and iat in whole seconds, and the session.
package struct AccessTokenClaims: JWTPayload, Equatable {
    package var iss: IssuerClaim
    package var sub: SubjectClaim
    package var aud: AudienceClaim
    package var exp: ExpirationClaim
    package var iat: IssuedAtClaim
    /// The session this token belongs to; revoking the session rejects the token.
    package var sid: String
    /// The session's assurance level (absent in tokens issued before levels were kept).
    package var aal: AssuranceLevel?
    /// How the session's person proved themselves, oldest first.
    package var amr: [AuthenticationMethodReference]?
    /// `true` for a guest account (issue 39), as Supabase's tokens say; absent otherwise.
    package var isAnonymous: Bool?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, sid, aal, amr
        case isAnonymous = "is_anonymous"
    }

    /// Expiry and audience are checked by ``TokenIssuer`` against its injected clock.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}
