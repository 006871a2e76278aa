import Foundation
import JWTKit

/// The claims of an OpenID Connect ID token that Gatehouse reads.
///
/// Not jwt-kit's `GoogleIdentityToken`: that one requires `azp` and does not check `aud`.
/// Signature and audience are checked by jwt-kit's identity-token verification; the checks
/// that need the server's clock and the flow (issuer, times, nonce, domain) are in
/// ``IDTokenVerifier``.
struct IDTokenClaims: JWTIdentityToken {
    let issuer: IssuerClaim
    let subject: SubjectClaim
    let audience: AudienceClaim
    let expires: ExpirationClaim
    let issuedAt: IssuedAtClaim
    let authorizedPresenter: String?
    let nonce: String?
    let email: String?
    let emailVerified: BoolClaim?
    let name: String?
    let picture: String?
    let hostedDomain: String?

    enum CodingKeys: String, CodingKey {
        case issuer = "iss", subject = "sub", audience = "aud", expires = "exp", issuedAt = "iat"
        case authorizedPresenter = "azp", nonce, email, emailVerified = "email_verified", name, picture
        case hostedDomain = "hd"
    }

    /// The subject must be 1 to 255 ASCII characters (OpenID Connect Core §2).
    func verify(using _: some JWTAlgorithm) throws {
        let sub = subject.value
        guard !sub.isEmpty, sub.utf8.count <= 255, sub.allSatisfy(\.isASCII) else {
            throw JWTError.claimVerificationFailure(failedClaim: subject, reason: "sub must be 1 to 255 ASCII characters")
        }
    }
}
