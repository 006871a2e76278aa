import Foundation
import JWTKit

/// The claims of an access token: iss, sub, aud, exp and iat in whole seconds, and the session.
struct AccessTokenClaims: JWTPayload, Equatable {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    /// The session this token belongs to; revoking the session rejects the token.
    var sid: String

    /// Expiry and audience are checked by ``TokenIssuer`` against its injected clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
