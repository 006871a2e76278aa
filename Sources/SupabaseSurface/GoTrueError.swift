import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird

/// An error in Supabase Auth's (GoTrue's) shape: `{"code": 400, "error_code": "…", "msg": "…"}`.
///
/// Supabase's clients read `error_code`; the official Python and Swift clients raise it as the
/// error's `code`.
package struct GoTrueError: HTTPResponseError, Equatable {
    package var status: HTTPResponse.Status
    package var errorCode: GoTrueErrorCode
    package var message: String
    /// Seconds until a retry may succeed (429, 503), sent as `Retry-After`.
    package var retryAfter: Int?

    package init(_ status: HTTPResponse.Status, _ errorCode: GoTrueErrorCode, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.errorCode = errorCode
        self.message = message
        self.retryAfter = retryAfter
    }

    package struct Body: Encodable {
        package let code: Int
        package let errorCode: String
        package let msg: String

        package enum CodingKeys: String, CodingKey {
            case code
            case errorCode = "error_code"
            case msg
        }
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONBody.response(Body(code: status.code, errorCode: errorCode.rawValue, msg: message), status: status)
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}

extension GoTrueError {
    package static let invalidCredentials = GoTrueError(.badRequest, .invalidCredentials, "Invalid login credentials")
    package static let noAuthorization = GoTrueError(.unauthorized, .noAuthorization, "This endpoint requires a Bearer token")
    package static let invalidAPIKey = GoTrueError(.unauthorized, .invalidAPIKey, "Invalid API key")

    package static func validationFailed(_ message: String) -> GoTrueError {
        GoTrueError(.badRequest, .validationFailed, message)
    }

    /// GoTrue's counterpart of a domain error.
    package init(_ error: GatehouseError) {
        switch error {
        case .invalidRequest(let message): self = .validationFailed(message)
        case .payloadTooLarge(let limit): self.init(.contentTooLarge, .requestTooLarge, "The request body must be at most \(limit) bytes")
        case .invalidCredentials: self = .invalidCredentials
        case .accountLocked: self.init(.badRequest, .userBanned, "User is banned")
        case .emailNotVerified: self.init(.badRequest, .emailNotConfirmed, "Email not confirmed")
        case .signInToContinue: self.init(.forbidden, .emailVerifiedSignIn, "Email verified. Sign in to continue.")
        case .factorLimitReached: self.init(.unprocessableContent, .tooManyEnrolledFactors, "Maximum number of verified factors reached, unenroll to continue")
        case .stepUpRequired: self.init(.forbidden, .insufficientAAL, "AAL2 required")
        case .passwordRejected(let rejection): self.init(.unprocessableContent, .weakPassword, rejection.message)
        case .linkExpired: self.init(.forbidden, .otpExpired, "Email link is invalid or has expired")
        case .featureNotOffered(.signUp): self.init(.unprocessableContent, .signupDisabled, "Signups not allowed for this instance")
        case .featureNotOffered(.passwordReset): self.init(.unprocessableContent, .validationFailed, "Password recovery is disabled")
        case .featureNotOffered(.passkeys): self.init(.unprocessableContent, .validationFailed, "Passkeys are disabled")
        case .featureNotOffered(.secondFactors): self.init(.unprocessableContent, .mfaTOTPEnrollDisabled, "MFA enroll is disabled for TOTP")
        case .featureNotOffered(.providers): self.init(.badRequest, .providerDisabled, "Unsupported provider: Provider is not enabled")
        case .featureNotOffered(.emailChange): self.init(.unprocessableContent, .validationFailed, "Email change is disabled")
        case .passkeyRejected(let failure): self.init(.badRequest, .validationFailed, failure == .unknownCredential ? "Passkey not found" : "Passkey verification failed")
        case .passkeyTaken: self.init(.unprocessableContent, .validationFailed, "Passkey is already registered")
        case .reauthenticationRequired: self.init(.badRequest, .reauthenticationNeeded, "This change requires reauthentication: a recent sign-in, the current_password or a nonce")
        case .rateLimited(let seconds):
            self.init(.tooManyRequests, .overRequestRateLimit, "Request rate limit reached", retryAfter: seconds)
        case .resendTooSoon(let seconds):
            self.init(
                .tooManyRequests, .overSMSSendRateLimit,
                "For security purposes, you can only request this after \(seconds) seconds.", retryAfter: seconds
            )
        case .overloaded(let seconds):
            self.init(.serviceUnavailable, .unexpectedFailure, "The server is busy", retryAfter: seconds)
        case .unauthenticated: self = .noAuthorization
        case .invalidToken(let message): self.init(.forbidden, .badJWT, "invalid JWT: \(message)")
        case .sessionEnded: self.init(.forbidden, .sessionNotFound, "Session from session_id claim in JWT does not exist")
        case .refreshRejected(.invalidRefreshToken):
            self.init(.badRequest, .refreshTokenNotFound, "Invalid Refresh Token: Refresh Token Not Found")
        case .refreshRejected(.reused): self.init(.badRequest, .refreshTokenAlreadyUsed, "Invalid Refresh Token: Already Used")
        case .refreshRejected(.sessionExpired): self.init(.badRequest, .sessionExpired, "Session Expired")
        case .refreshRejected(.sessionRevoked):
            self.init(.badRequest, .sessionNotFound, "Invalid Refresh Token: Session Not Found")
        case .refreshRejected(.accountLocked): self.init(.badRequest, .userBanned, "User is banned")
        case .invalidPhone: self.init(.badRequest, .validationFailed, "Invalid phone number format (E.164 required)")
        case .accountNotFound: self.init(.badRequest, .otpDisabled, "Signups not allowed for otp")
        case .phoneTaken: self.init(.unprocessableContent, .phoneExists, "Phone number already registered by another user")
        case .codeRejected(.incorrect), .codeRejected(.expired):
            self.init(.forbidden, .otpExpired, "Token has expired or is invalid")
        case .codeRejected(.exhausted):
            self.init(.tooManyRequests, .overRequestRateLimit, "Too many incorrect codes. Request a new one.")
        case .smsUnavailable(let seconds):
            self.init(.internalServerError, .smsSendFailed, "Error sending sms OTP", retryAfter: seconds)
        case .providerSignIn(.cancelled): self.init(.badRequest, .accessDenied, "The user denied access")
        case .providerSignIn(.providerUnavailable): self.init(.badGateway, .unexpectedFailure, "Error contacting the OAuth provider")
        case .providerSignIn(.invalidCode): self.init(.badRequest, .badOAuthCallback, "Unable to exchange the OAuth code")
        case .providerSignIn(.invalidToken(let reason)): self.init(.badRequest, .badJWT, "Unable to verify the ID token: \(reason)")
        case .providerSignIn(.invalidFlow): self.init(.notFound, .flowStateNotFound, "Invalid flow state, no valid flow state found")
        case .providerSignIn(.linkRequired):
            self.init(.unprocessableContent, .emailExists, "A user with this email already exists; sign in and link the identity")
        case .providerSignIn(.identityTaken): self.init(.unprocessableContent, .identityAlreadyExists, "Identity is already linked to another user")
        case .providerSignIn(.notConfigured): self.init(.badRequest, .providerDisabled, "Unsupported provider: Provider is not enabled")
        case .providerSignIn(.redirectNotAllowed): self.init(.badRequest, .validationFailed, "redirect_to is not allowed")
        case .lastSignInMethod: self.init(.unprocessableContent, .singleIdentityNotDeletable, "User must have at least 1 identity after unlinking")
        case .formExpired: self.init(.forbidden, .requestError, "The form expired; reload the page and try again")
        case .methodNotOffered(.email), .methodNotOffered(.emailCode): self.init(.badRequest, .emailProviderDisabled, "Email logins are disabled")
        case .methodNotOffered(.phone): self.init(.badRequest, .phoneProviderDisabled, "Phone logins are disabled")
        case .methodNotOffered(.anonymous): self.init(.unprocessableContent, .anonymousProviderDisabled, "Anonymous sign-ins are disabled")
        case .methodNotOffered: self.init(.badRequest, .providerDisabled, "Unsupported provider: Provider is not enabled")
        case .administration(let failure): self.init(failure)
        case .notFound: self.init(.notFound, .notFound, "No such route")
        case .methodNotAllowed: self.init(.methodNotAllowed, .methodNotAllowed, "This route does not take that method")
        case .unexpected: self.init(.internalServerError, .unexpectedFailure, "Something went wrong. Please try again.")
        }
    }

    /// GoTrue's counterpart of an operator's refused operation (its admin API's codes).
    package init(_ failure: AdministrationError) {
        switch failure {
        case .invalidEmail(let rule), .invalidPassword(let rule), .invalidName(let rule): self = .validationFailed(rule)
        case .invalidPhone: self.init(GatehouseError.invalidPhone)
        case .emailTaken: self.init(.unprocessableContent, .emailExists, "A user with this email address has already been registered")
        case .phoneTaken: self.init(GatehouseError.phoneTaken)
        case .noSuchUser, .noSuchAccount: self.init(.notFound, .userNotFound, "User not found")
        }
    }
}

/// Speaks GoTrue's error shape for every error under `/auth/v1`, including unexpected ones.
package struct GoTrueErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GoTrueError {
            throw error
        } catch let error as GatehouseError {
            throw GoTrueError(error)
        } catch {
            throw GoTrueError(GatehouseError.from(error, limit: context.maxUploadSize, logger: context.logger))
        }
    }
}
