import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import GraphQL
import LoginCore

/// GraphQL errors with an `extensions.code`, in the style Apollo servers use.
///
/// The codes are ``GraphQLErrorCode``, the table the SDK reads too; each domain error picks
/// its code in one exhaustive `switch`, never from another surface's string. Messages are the
/// app's copy where the screen shows them, and the REST wording otherwise.
package enum GraphQLFailure {
    package static func make(code: GraphQLErrorCode, message: String, locations: [SourceLocation] = [], path: IndexPath = []) -> GraphQLError {
        GraphQLError(message: message, locations: locations, path: path, extensions: ["code": .string(code.rawValue)])
    }

    /// A document that does not parse or does not fit the schema.
    package static func badRequest(_ message: String, locations: [SourceLocation] = []) -> GraphQLError {
        make(code: .validationFailed, message: message, locations: locations)
    }

    /// Anything unexpected; its description is never sent, as it could quote request data.
    package static func internalError(locations: [SourceLocation] = [], path: IndexPath = []) -> GraphQLError {
        make(code: .internalServerError, message: "Something went wrong. Please try again.", locations: locations, path: path)
    }

    /// The GraphQL rendering of a domain error; an invalid-credentials message is the app's copy.
    package static func make(
        _ error: GatehouseError, messages: MessageCatalogue, locations: [SourceLocation] = [], path: IndexPath = []
    ) -> GraphQLError {
        let rest = APIError(error)
        let (code, message, retryAfter): (GraphQLErrorCode, String, Int?) = switch error {
        case .invalidRequest(let message): (.badUserInput, message, nil)
        case .payloadTooLarge(let limit): (.badUserInput, "The request body must be at most \(limit) bytes", nil)
        case .invalidCredentials: (.invalidCredentials, messages.text(.invalidCredentials), nil)
        case .accountLocked: (.accountLocked, messages.text(.accountLocked), nil)
        case .emailNotVerified: (.emailNotVerified, messages.text(.emailNotVerified), nil)
        case .passwordRejected(let rejection): (.weakPassword, rejection.message, nil)
        case .linkExpired: (.linkExpired, messages.text(.linkExpired), nil)
        case .featureNotOffered: (.featureDisabled, rest.message, nil)
        case .passkeyRejected(.unknownCredential): (.passkeyUnknown, messages.text(.passkeyUnknown), nil)
        case .passkeyRejected(.challengeExpired): (.passkeyChallengeExpired, rest.message, nil)
        case .passkeyRejected: (.passkeyRejected, messages.text(.passkeyFailed), nil)
        case .passkeyTaken: (.passkeyTaken, rest.message, nil)
        case .reauthenticationRequired: (.reauthenticationRequired, rest.message, nil)
        case .rateLimited(let seconds): (.rateLimited, messages.rateLimitedText(seconds: seconds), seconds)
        case .resendTooSoon(let seconds):
            (.resendTooSoon, messages.resendWaitText(seconds: seconds), seconds)
        case .overloaded(let seconds): (.serverBusy, "The server is busy. Please try again shortly.", seconds)
        case .unauthenticated: (.unauthenticated, "A Bearer access token is required", nil)
        case .invalidToken(let message): (.unauthenticated, message, nil)
        case .sessionEnded: (.unauthenticated, "The session has ended", nil)
        case .refreshRejected(let failure): (code(failure), failure.message, nil)
        case .methodNotOffered: (.signInMethodNotOffered, rest.message, nil)
        case .formExpired: (.badUserInput, rest.message, nil)
        case .invalidPhone: (.invalidPhone, rest.message, nil)
        case .accountNotFound: (.accountNotFound, rest.message, nil)
        case .phoneTaken: (.phoneTaken, rest.message, nil)
        case .codeRejected(.incorrect): (.invalidCode, rest.message, nil)
        case .codeRejected(.expired): (.codeExpired, rest.message, nil)
        case .codeRejected(.exhausted): (.codeAttemptsExceeded, rest.message, nil)
        case .smsUnavailable(let seconds): (.smsUnavailable, rest.message, seconds)
        case .providerSignIn(let failure): (code(failure), rest.message, nil)
        case .lastSignInMethod: (.lastSignInMethod, rest.message, nil)
        case .administration(.emailTaken): (.emailTaken, rest.message, nil)
        case .administration(.phoneTaken): (.phoneTaken, rest.message, nil)
        case .administration(.invalidPhone): (.invalidPhone, rest.message, nil)
        case .administration(.noSuchUser), .administration(.noSuchAccount): (.accountNotFound, rest.message, nil)
        case .administration(.invalidEmail), .administration(.invalidPassword), .administration(.invalidName):
            (.badUserInput, rest.message, nil)
        case .notFound: (.notFound, rest.message, nil)
        case .methodNotAllowed: (.badUserInput, rest.message, nil)
        case .unexpected: (.internalServerError, rest.message, nil)
        }
        var extensions: [String: Map] = ["code": .string(code.rawValue)]
        if let retryAfter { extensions["retryAfter"] = .number(Number(retryAfter)) }
        return GraphQLError(message: message, locations: locations, path: path, extensions: extensions)
    }

    package static func code(_ failure: RefreshFailure) -> GraphQLErrorCode {
        switch failure {
        case .invalidRefreshToken: .invalidRefreshToken
        case .reused: .refreshTokenReused
        case .sessionExpired: .sessionExpired
        case .sessionRevoked: .sessionRevoked
        case .accountLocked: .accountLocked
        }
    }

    package static func code(_ failure: ProviderFailure) -> GraphQLErrorCode {
        switch failure {
        case .cancelled: .providerCancelled
        case .providerUnavailable: .providerUnavailable
        case .invalidCode: .providerCodeRejected
        case .invalidToken: .invalidIDToken
        case .invalidFlow: .invalidFlowState
        case .linkRequired: .linkRequired
        case .identityTaken: .identityTaken
        case .notConfigured: .providerDisabled
        case .redirectNotAllowed: .redirectNotAllowed
        }
    }
}
