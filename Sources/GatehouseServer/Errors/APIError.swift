import Foundation
import Hummingbird

/// An error response: a status and a JSON body `{"error": code, "message": text}`.
///
/// Every failure the API reports is one of these, so clients always get the same shape and the
/// body is never cached.
public struct APIError: HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code such as `invalid_credentials`.
    public var code: String
    /// A human-readable explanation; never contains a password or token.
    public var message: String
    /// Extra response headers, such as `WWW-Authenticate`.
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONBody.encoder.encode(ErrorBody(error: code, message: message))
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The JSON body of every error: always these two keys, always in this order.
struct ErrorBody: Encodable {
    let error: String
    let message: String
}

extension APIError {
    /// Seed 000 C2's 401 for a wrong email or password.
    static let invalidCredentials = APIError(.unauthorized, code: "invalid_credentials", message: "Invalid email or password")

    static let accountLocked = APIError(
        .forbidden, code: "account_locked", message: "Your account has been locked. Please contact support."
    )

    static func invalidRequest(_ message: String) -> APIError {
        APIError(.badRequest, code: "invalid_request", message: message)
    }

    static func invalidToken(_ message: String) -> APIError {
        APIError(
            .unauthorized, code: "invalid_token", message: message,
            headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#]
        )
    }

    /// A valid access token whose session is over (logged out, revoked, expired or locked).
    static let sessionEnded = invalidToken("The session has ended")

    /// A refresh that cannot succeed; `code` says why (see ``RefreshFailure``).
    static func refreshRejected(_ failure: RefreshFailure) -> APIError {
        let status: HTTPResponse.Status = failure == .accountLocked ? .forbidden : .unauthorized
        return APIError(status, code: failure.rawValue, message: failure.message)
    }
}

/// Why a refresh token was refused; each is a distinct `error` code clients can act on.
public enum RefreshFailure: String, Sendable {
    /// Unknown token.
    case invalidRefreshToken = "invalid_refresh_token"
    /// A rotated token was presented after the grace window; the session is now revoked.
    case reused = "refresh_token_reused"
    /// The session reached its absolute lifetime.
    case sessionExpired = "session_expired"
    /// The session was ended by logout, a password change or an administrator.
    case sessionRevoked = "session_revoked"
    case accountLocked = "account_locked"

    var message: String {
        switch self {
        case .invalidRefreshToken: "The refresh token is not valid"
        case .reused: "The refresh token was already used; the session has been ended"
        case .sessionExpired: "Your session has expired. Please sign in again."
        case .sessionRevoked: "The session has ended. Please sign in again."
        case .accountLocked: "Your account has been locked. Please contact support."
        }
    }
}
