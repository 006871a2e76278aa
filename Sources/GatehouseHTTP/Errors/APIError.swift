import Foundation
import GatehouseCore
import GatehouseModel
import HTTPTypes
import Hummingbird

/// An error response of the REST API: a status and a JSON body `{"error": code, "message": text}`.
///
/// Every failure the API reports is one of these, so clients always get the same shape and the
/// body is never cached. A rate-limited answer adds `retry_after` and a `Retry-After` header.
public struct APIError: HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    /// A stable, machine-readable code such as `invalid_credentials`.
    public var code: String
    /// A human-readable explanation; never contains a password or token.
    public var message: String
    /// Extra response headers, such as `WWW-Authenticate`.
    public var headers: HTTPFields
    /// Seconds until a retry may succeed (429 and 503).
    public var retryAfter: Int?
    /// Tries left on a one-time code.
    public var attemptsLeft: Int?

    public init(
        _ status: HTTPResponse.Status, code: String, message: String, headers: HTTPFields = [:], retryAfter: Int? = nil,
        attemptsLeft: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
        self.retryAfter = retryAfter
        self.attemptsLeft = attemptsLeft
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try JSONBody.encoder.encode(ErrorBody(error: code, message: message, retryAfter: retryAfter, attemptsLeft: attemptsLeft))
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        if let retryAfter { fields[.retryAfter] = String(retryAfter) }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The JSON body of every error: `error` and `message`, and `retry_after` when there is a wait.
package struct ErrorBody: Encodable {
    package let error: String
    package let message: String
    package let retryAfter: Int?
    package let attemptsLeft: Int?

    package enum CodingKeys: String, CodingKey {
        case error, message
        case retryAfter = "retry_after"
        case attemptsLeft = "attempts_left"
    }
}

extension APIError {
    /// The REST rendering of a domain error.
    package init(_ error: GatehouseError) {
        switch error {
        case .invalidRequest(let message):
            self.init(.badRequest, code: ServerErrorCode.invalidRequest.rawValue, message: message)
        case .payloadTooLarge(let limit):
            self.init(.contentTooLarge, code: ServerErrorCode.payloadTooLarge.rawValue, message: "The request body must be at most \(limit) bytes")
        case .invalidCredentials:
            self.init(.unauthorized, code: ServerErrorCode.invalidCredentials.rawValue, message: "Invalid email or password")
        case .accountLocked:
            self.init(.forbidden, code: ServerErrorCode.accountLocked.rawValue, message: RefreshFailure.accountLocked.message)
        case .emailNotVerified:
            self.init(.forbidden, code: ServerErrorCode.emailNotVerified.rawValue, message: "Please verify your email address.")
        case .passwordRejected(let rejection):
            self.init(.badRequest, code: ServerErrorCode.weakPassword.rawValue, message: rejection.message)
        case .linkExpired:
            self.init(
                .gone, code: ServerErrorCode.linkExpired.rawValue, message: "This link has expired or was already used. Please request a new one."
            )
        case .featureNotOffered(let feature):
            self.init(.forbidden, code: ServerErrorCode.featureDisabled.rawValue, message: "This app does not offer \(feature.displayName)")
        case .passkeyRejected(.unknownCredential):
            self.init(.unauthorized, code: ServerErrorCode.passkeyUnknown.rawValue, message: "This passkey is not registered here")
        case .passkeyRejected(.challengeExpired):
            self.init(
                .badRequest, code: ServerErrorCode.passkeyChallengeExpired.rawValue,
                message: "The passkey request expired or was already used. Please try again."
            )
        case .passkeyRejected(.signatureInvalid), .passkeyRejected(.userHandleMismatch), .passkeyRejected(.signCountRegressed):
            self.init(.unauthorized, code: ServerErrorCode.passkeyRejected.rawValue, message: "The passkey could not be verified")
        case .passkeyRejected:
            self.init(.badRequest, code: ServerErrorCode.passkeyRejected.rawValue, message: "The passkey could not be verified")
        case .passkeyTaken:
            self.init(.conflict, code: ServerErrorCode.passkeyTaken.rawValue, message: "This passkey is already registered")
        case .reauthenticationRequired:
            self.init(
                .unauthorized, code: ServerErrorCode.reauthenticationRequired.rawValue,
                message: "Please sign in again to add a passkey", headers: [.wwwAuthenticate: #"Bearer error="insufficient_user_authentication""#]
            )
        case .rateLimited(let seconds):
            self.init(
                .tooManyRequests, code: ServerErrorCode.rateLimited.rawValue,
                message: "Too many attempts. Please try again in \(seconds) seconds.", retryAfter: seconds
            )
        case .resendTooSoon(let seconds):
            self.init(
                .tooManyRequests, code: ServerErrorCode.resendTooSoon.rawValue,
                message: "A code was just sent. You can ask for a new one in \(seconds) seconds.", retryAfter: seconds
            )
        case .overloaded(let seconds):
            self.init(
                .serviceUnavailable, code: ServerErrorCode.serverBusy.rawValue,
                message: "The server is busy. Please try again shortly.", retryAfter: seconds
            )
        case .unauthenticated:
            self.init(
                .unauthorized, code: ServerErrorCode.unauthorized.rawValue, message: "A Bearer access token is required",
                headers: [.wwwAuthenticate: "Bearer"]
            )
        case .invalidToken(let message):
            self.init(
                .unauthorized, code: ServerErrorCode.invalidToken.rawValue, message: message,
                headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#]
            )
        case .sessionEnded:
            self.init(GatehouseError.invalidToken("The session has ended"))
        case .refreshRejected(let failure):
            self.init(failure == .accountLocked ? .forbidden : .unauthorized, code: failure.rawValue, message: failure.message)
        case .invalidPhone:
            self.init(.badRequest, code: ServerErrorCode.invalidPhone.rawValue, message: "Please enter a valid mobile number")
        case .accountNotFound:
            self.init(.notFound, code: ServerErrorCode.accountNotFound.rawValue, message: "No account found. Create one?")
        case .phoneTaken:
            self.init(.conflict, code: ServerErrorCode.phoneTaken.rawValue, message: "An account with this number already exists")
        case .codeRejected(.incorrect(let left)):
            self.init(
                .badRequest, code: ServerErrorCode.invalidCode.rawValue,
                message: "Incorrect code. \(left) \(left == 1 ? "attempt" : "attempts") left.", attemptsLeft: left
            )
        case .codeRejected(.expired):
            self.init(.gone, code: ServerErrorCode.codeExpired.rawValue, message: "This code has expired. Request a new one.")
        case .codeRejected(.exhausted):
            self.init(
                .tooManyRequests, code: ServerErrorCode.codeAttemptsExceeded.rawValue,
                message: "Too many incorrect codes. Request a new one.", attemptsLeft: 0
            )
        case .smsUnavailable(let seconds):
            self.init(
                .serviceUnavailable, code: ServerErrorCode.smsUnavailable.rawValue,
                message: "We couldn't send the code just now. Please try again shortly.", retryAfter: seconds
            )
        case .providerSignIn(let failure):
            self.init(failure)
        case .lastSignInMethod:
            self.init(
                .conflict, code: ServerErrorCode.lastSignInMethod.rawValue,
                message: "This is the account's last way to sign in; add another before removing it."
            )
        case .formExpired:
            self.init(.forbidden, code: ServerErrorCode.csrf.rawValue, message: "The form expired; reload the page and try again")
        case .methodNotOffered(let method):
            self.init(
                .forbidden, code: ServerErrorCode.signInMethodNotOffered.rawValue,
                message: "This app does not offer sign-in with \(method.displayName)"
            )
        case .administration(let failure):
            self.init(failure)
        case .notFound:
            self.init(.notFound, code: ServerErrorCode.notFound.rawValue, message: "No such route or file")
        case .methodNotAllowed:
            self.init(.methodNotAllowed, code: ServerErrorCode.methodNotAllowed.rawValue, message: "This route does not take that method")
        case .unexpected:
            self.init(.internalServerError, code: ServerErrorCode.serverError.rawValue, message: "Something went wrong. Please try again.")
        }
    }

    /// The REST rendering of an operator's refused operation: the rule's copy, never the input.
    package init(_ failure: AdministrationError) {
        switch failure {
        case .invalidEmail(let rule), .invalidPassword(let rule), .invalidName(let rule):
            self.init(.badRequest, code: ServerErrorCode.invalidRequest.rawValue, message: rule)
        case .invalidPhone:
            self.init(GatehouseError.invalidPhone)
        case .emailTaken:
            self.init(.conflict, code: ServerErrorCode.emailTaken.rawValue, message: "An account with this email already exists")
        case .phoneTaken:
            self.init(GatehouseError.phoneTaken)
        case .noSuchUser, .noSuchAccount:
            self.init(.notFound, code: ServerErrorCode.accountNotFound.rawValue, message: "No such account")
        }
    }

    /// The REST rendering of a provider sign-in failure, in seed 002's words where it has them.
    package init(_ failure: ProviderFailure) {
        switch failure {
        case .cancelled:
            self.init(.badRequest, code: ServerErrorCode.providerCancelled.rawValue, message: "Sign-in cancelled")
        case .providerUnavailable:
            self.init(.badGateway, code: ServerErrorCode.providerUnavailable.rawValue, message: "Google sign-in failed. Please try again.")
        case .invalidCode:
            self.init(.unauthorized, code: ServerErrorCode.providerCodeRejected.rawValue, message: "Authentication failed. Please try again.")
        case .invalidToken(let reason):
            self.init(.unauthorized, code: ServerErrorCode.invalidIDToken.rawValue, message: "The ID token was refused: \(reason)")
        case .invalidFlow:
            self.init(
                .badRequest, code: ServerErrorCode.invalidFlowState.rawValue,
                message: "This sign-in expired or was already used. Please start again."
            )
        case .linkRequired:
            self.init(
                .conflict, code: ServerErrorCode.linkRequired.rawValue,
                message: "An account with this email already exists. Sign in with your password, then link Google from your account."
            )
        case .identityTaken:
            self.init(.conflict, code: ServerErrorCode.identityTaken.rawValue, message: "This Google account is linked to another account.")
        case .notConfigured:
            self.init(.notFound, code: ServerErrorCode.providerDisabled.rawValue, message: "Google sign-in is not enabled")
        case .redirectNotAllowed:
            self.init(.badRequest, code: ServerErrorCode.redirectNotAllowed.rawValue, message: "The return address is not allowed")
        }
    }
}

extension HTTPField.Name {
    package static let retryAfter = HTTPField.Name("Retry-After")!
}
