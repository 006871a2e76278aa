import Foundation
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

    /// Expiry and audience are checked by ``TokenIssuer`` against its injected clock.
    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}
