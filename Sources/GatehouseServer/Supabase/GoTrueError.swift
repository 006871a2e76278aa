import Foundation
import Hummingbird

/// An error in Supabase Auth's (GoTrue's) shape: `{"code": 400, "error_code": "…", "msg": "…"}`.
///
/// Supabase's clients read `error_code`; the official Python and Swift clients raise it as the
/// error's `code`.
struct GoTrueError: HTTPResponseError, Equatable {
    var status: HTTPResponse.Status
    var errorCode: String
    var message: String
    /// Seconds until a retry may succeed (429, 503), sent as `Retry-After`.
    var retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ errorCode: String, _ message: String, retryAfter: Int? = nil) {
        self.status = status
        self.errorCode = errorCode
        self.message = message
        self.retryAfter = retryAfter
    }

    struct Body: Encodable {
        let code: Int
        let errorCode: String
        let msg: String

        enum CodingKeys: String, CodingKey {
            case code
            case errorCode = "error_code"
            case msg
        }
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONBody.response(Body(code: status.code, errorCode: errorCode, msg: message), status: status)
        if status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer" }
        if let retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }
}

extension GoTrueError {
    static let invalidCredentials = GoTrueError(.badRequest, "invalid_credentials", "Invalid login credentials")
    static let noAuthorization = GoTrueError(.unauthorized, "no_authorization", "This endpoint requires a Bearer token")
    static let invalidAPIKey = GoTrueError(.unauthorized, "invalid_api_key", "Invalid API key")

    static func validationFailed(_ message: String) -> GoTrueError {
        GoTrueError(.badRequest, "validation_failed", message)
    }

    /// GoTrue's counterpart of a domain error.
    init(_ error: GatehouseError) {
        switch error {
        case .invalidRequest(let message): self = .validationFailed(message)
        case .payloadTooLarge(let limit): self.init(.contentTooLarge, "request_too_large", "The request body must be at most \(limit) bytes")
        case .invalidCredentials: self = .invalidCredentials
        case .accountLocked: self.init(.badRequest, "user_banned", "User is banned")
        case .rateLimited(let seconds):
            self.init(.tooManyRequests, "over_request_rate_limit", "Request rate limit reached", retryAfter: seconds)
        case .resendTooSoon(let seconds):
            self.init(
                .tooManyRequests, "over_sms_send_rate_limit",
                "For security purposes, you can only request this after \(seconds) seconds.", retryAfter: seconds
            )
        case .overloaded(let seconds):
            self.init(.serviceUnavailable, "unexpected_failure", "The server is busy", retryAfter: seconds)
        case .unauthenticated: self = .noAuthorization
        case .invalidToken(let message): self.init(.forbidden, "bad_jwt", "invalid JWT: \(message)")
        case .sessionEnded: self.init(.forbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
        case .refreshRejected(.invalidRefreshToken):
            self.init(.badRequest, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
        case .refreshRejected(.reused): self.init(.badRequest, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
        case .refreshRejected(.sessionExpired): self.init(.badRequest, "session_expired", "Session Expired")
        case .refreshRejected(.sessionRevoked):
            self.init(.badRequest, "session_not_found", "Invalid Refresh Token: Session Not Found")
        case .refreshRejected(.accountLocked): self.init(.badRequest, "user_banned", "User is banned")
        case .invalidPhone: self.init(.badRequest, "validation_failed", "Invalid phone number format (E.164 required)")
        case .accountNotFound: self.init(.badRequest, "otp_disabled", "Signups not allowed for otp")
        case .phoneTaken: self.init(.unprocessableContent, "phone_exists", "Phone number already registered by another user")
        case .codeRejected(.incorrect), .codeRejected(.expired):
            self.init(.forbidden, "otp_expired", "Token has expired or is invalid")
        case .codeRejected(.exhausted):
            self.init(.tooManyRequests, "over_request_rate_limit", "Too many incorrect codes. Request a new one.")
        case .smsUnavailable(let seconds):
            self.init(.internalServerError, "sms_send_failed", "Error sending sms OTP", retryAfter: seconds)
        case .providerSignIn(.cancelled): self.init(.badRequest, "access_denied", "The user denied access")
        case .providerSignIn(.providerUnavailable): self.init(.badGateway, "unexpected_failure", "Error contacting the OAuth provider")
        case .providerSignIn(.invalidCode): self.init(.badRequest, "bad_oauth_callback", "Unable to exchange the OAuth code")
        case .providerSignIn(.invalidToken(let reason)): self.init(.badRequest, "bad_jwt", "Unable to verify the ID token: \(reason)")
        case .providerSignIn(.invalidFlow): self.init(.notFound, "flow_state_not_found", "Invalid flow state, no valid flow state found")
        case .providerSignIn(.linkRequired):
            self.init(.unprocessableContent, "email_exists", "A user with this email already exists; sign in and link the identity")
        case .providerSignIn(.identityTaken): self.init(.unprocessableContent, "identity_already_exists", "Identity is already linked to another user")
        case .providerSignIn(.notConfigured): self.init(.badRequest, "provider_disabled", "Unsupported provider: Provider is not enabled")
        case .providerSignIn(.redirectNotAllowed): self.init(.badRequest, "validation_failed", "redirect_to is not allowed")
        case .lastSignInMethod: self.init(.unprocessableContent, "single_identity_not_deletable", "User must have at least 1 identity after unlinking")
        case .methodNotOffered(.email): self.init(.badRequest, "email_provider_disabled", "Email logins are disabled")
        case .methodNotOffered(.phone): self.init(.badRequest, "phone_provider_disabled", "Phone logins are disabled")
        case .methodNotOffered(.google): self.init(.badRequest, "provider_disabled", "Unsupported provider: Provider is not enabled")
        }
    }

    /// GoTrue's counterpart of an error that is not the domain's (routing, body size, the unexpected).
    init(_ error: APIError) {
        let code = switch error.status {
        case .notFound: "not_found"
        case .badRequest, .contentTooLarge: "validation_failed"
        default: error.status.code >= 500 ? "unexpected_failure" : "request_error"
        }
        self.init(error.status, code, error.message)
    }
}

/// Speaks GoTrue's error shape for every error under `/auth/v1`, including unexpected ones.
struct GoTrueErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GoTrueError {
            throw error
        } catch let error as GatehouseError {
            throw GoTrueError(error)
        } catch {
            if let bodyError = JSONBody.bodyError(error, limit: context.maxUploadSize) as? GatehouseError { throw GoTrueError(bodyError) }
            throw GoTrueError(APIError.from(error, logger: context.logger))
        }
    }
}
