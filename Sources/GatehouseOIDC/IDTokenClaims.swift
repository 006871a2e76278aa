import Foundation
import GatehouseCore
import JWTKit

/// The claims of an OpenID Connect ID token that Gatehouse reads.
///
/// Not jwt-kit's `GoogleIdentityToken`: that one requires `azp` and does not check `aud`.
/// Signature and audience are checked by jwt-kit's identity-token verification; the checks
/// that need the server's clock and the flow (issuer, times, nonce, domain) are in
/// ``IDTokenVerifier``.
package struct IDTokenClaims: JWTIdentityToken {
    package let issuer: IssuerClaim
    package let subject: SubjectClaim
    package let audience: AudienceClaim
    package let expires: ExpirationClaim
    package let issuedAt: IssuedAtClaim
    package let authorizedPresenter: String?
    package let nonce: String?
    package let email: String?
    package let emailVerified: BoolClaim?
    package let name: String?
    package let picture: String?
    package let hostedDomain: String?
    /// Microsoft's tenant of the account, which its multi-tenant issuer names.
    package let tenantID: String?
    /// Apple's private relay address; like `email_verified`, a boolean or the string `"true"`.
    package let isPrivateEmail: BoolClaim?

    package enum CodingKeys: String, CodingKey {
        case issuer = "iss", subject = "sub", audience = "aud", expires = "exp", issuedAt = "iat"
        case authorizedPresenter = "azp", nonce, email, emailVerified = "email_verified", name, picture
        case hostedDomain = "hd", tenantID = "tid", isPrivateEmail = "is_private_email"
    }

    /// The subject must be 1 to 255 ASCII characters (OpenID Connect Core §2).
    package func verify(using _: some JWTAlgorithm) throws {
        let sub = subject.value
        guard !sub.isEmpty, sub.utf8.count <= 255, sub.allSatisfy(\.isASCII) else {
            throw JWTError.claimVerificationFailure(failedClaim: subject, reason: "sub must be 1 to 255 ASCII characters")
        }
    }
}
