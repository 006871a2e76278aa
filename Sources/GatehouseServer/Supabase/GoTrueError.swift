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

    init(_ status: HTTPResponse.Status, _ errorCode: String, _ message: String) {
        self.status = status
        self.errorCode = errorCode
        self.message = message
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

    /// GoTrue's counterpart of a Gatehouse error.
    init(_ error: APIError) {
        switch error.code {
        case "invalid_credentials": self = .invalidCredentials
        case "account_locked": self.init(.badRequest, "user_banned", "User is banned")
        case "invalid_request": self = .validationFailed(error.message)
        case "unauthorized": self = .noAuthorization
        case "invalid_token" where error == .sessionEnded:
            self.init(.forbidden, "session_not_found", "Session from session_id claim in JWT does not exist")
        case "invalid_token": self.init(.forbidden, "bad_jwt", "invalid JWT: \(error.message)")
        case RefreshFailure.invalidRefreshToken.rawValue:
            self.init(.badRequest, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
        case RefreshFailure.reused.rawValue:
            self.init(.badRequest, "refresh_token_already_used", "Invalid Refresh Token: Already Used")
        case RefreshFailure.sessionExpired.rawValue: self.init(.badRequest, "session_expired", "Session Expired")
        case RefreshFailure.sessionRevoked.rawValue:
            self.init(.badRequest, "session_not_found", "Invalid Refresh Token: Session Not Found")
        case "rate_limited": self.init(.tooManyRequests, "over_request_rate_limit", error.message)
        case "not_found": self.init(.notFound, "not_found", error.message)
        default:
            self.init(error.status, error.status.code >= 500 ? "unexpected_failure" : error.code, error.message)
        }
    }
}

/// Speaks GoTrue's error shape for every error under `/auth/v1`, including unexpected ones.
struct GoTrueErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as GoTrueError {
            throw error
        } catch {
            throw GoTrueError(APIError.from(error, logger: context.logger))
        }
    }
}
