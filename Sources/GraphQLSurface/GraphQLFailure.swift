import GatehouseCore
import GatehouseModel
import GraphQL
import Hummingbird
import LoginCore

/// GraphQL errors with an `extensions.code`, in the style Apollo servers use.
///
/// The codes are ``GraphQLErrorCode``, the table the SDK reads too; each domain error picks
/// its code in one exhaustive `switch`, never from another surface's string. Messages are the
/// app's copy where the screen shows them, and the error's one presentation otherwise.
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
        let shown = error.presentation
        let (code, message): (GraphQLErrorCode, String) = switch error {
        case .invalidRequest(let message): (.badUserInput, message)
        case .payloadTooLarge: (.badUserInput, shown.text)
        case .invalidCredentials: (.invalidCredentials, messages.text(.invalidCredentials))
        case .accountLocked: (.accountLocked, messages.text(.accountLocked))
        case .emailNotVerified: (.emailNotVerified, messages.text(.emailNotVerified))
        case .signInToContinue: (.emailVerifiedSignIn, messages.text(.emailVerifiedSignIn))
        case .factorLimitReached: (.tooManyFactors, shown.text)
        case .stepUpRequired: (.mfaRequired, shown.text)
        case .passwordRejected(let rejection): (.weakPassword, rejection.message)
        case .linkExpired: (.linkExpired, messages.text(.linkExpired))
        case .featureNotOffered: (.featureDisabled, shown.text)
        case .passkeyRejected(.unknownCredential): (.passkeyUnknown, messages.text(.passkeyUnknown))
        case .passkeyRejected(.challengeExpired): (.passkeyChallengeExpired, shown.text)
        case .passkeyRejected: (.passkeyRejected, messages.text(.passkeyFailed))
        case .passkeyTaken: (.passkeyTaken, shown.text)
        case .reauthenticationRequired: (.reauthenticationRequired, shown.text)
        case .rateLimited(let seconds): (.rateLimited, messages.rateLimitedText(seconds: seconds))
        case .resendTooSoon(let seconds):
            (.resendTooSoon, messages.resendWaitText(seconds: seconds))
        case .overloaded: (.serverBusy, shown.text)
        case .unauthenticated: (.unauthenticated, shown.text)
        case .invalidToken: (.unauthenticated, shown.text)
        case .sessionEnded: (.unauthenticated, shown.text)
        case .refreshRejected(let failure): (code(failure), shown.text)
        case .methodNotOffered: (.signInMethodNotOffered, shown.text)
        case .formExpired: (.badUserInput, shown.text)
        case .invalidPhone: (.invalidPhone, shown.text)
        case .accountNotFound: (.accountNotFound, shown.text)
        case .phoneTaken: (.phoneTaken, shown.text)
        case .codeRejected(.incorrect): (.invalidCode, shown.text)
        case .codeRejected(.expired): (.codeExpired, shown.text)
        case .codeRejected(.exhausted): (.codeAttemptsExceeded, shown.text)
        case .smsUnavailable: (.smsUnavailable, shown.text)
        case .providerSignIn(let failure): (code(failure), shown.text)
        case .lastSignInMethod: (.lastSignInMethod, shown.text)
        case .administration(.emailTaken): (.emailTaken, shown.text)
        case .administration(.phoneTaken): (.phoneTaken, shown.text)
        case .administration(.invalidPhone): (.invalidPhone, shown.text)
        case .administration(.noSuchUser), .administration(.noSuchAccount): (.accountNotFound, shown.text)
        case .administration(.invalidEmail), .administration(.invalidPassword), .administration(.invalidName):
            (.badUserInput, shown.text)
        case .notFound: (.notFound, shown.text)
        case .methodNotAllowed: (.badUserInput, shown.text)
        case .unexpected: (.internalServerError, shown.text)
        }
        var extensions: [String: Map] = ["code": .string(code.rawValue)]
        if let retryAfter = shown.retryAfter { extensions["retryAfter"] = .number(Number(retryAfter)) }
        return GraphQLError(message: message, locations: locations, path: path, extensions: extensions)
    }

    /// The HTTP status a GraphQL answer takes for an error (otherwise 200): 429 or 503 with
    /// `Retry-After` when a sign-in was throttled or the server was busy, as on REST.
    package static func httpStatus(of error: GatehouseError) -> (HTTPResponse.Status, Int?)? {
        switch error {
        case .rateLimited(let seconds), .resendTooSoon(let seconds): (.tooManyRequests, seconds)
        case .overloaded(let seconds): (.serviceUnavailable, seconds)
        case .invalidRequest, .payloadTooLarge, .invalidCredentials, .accountLocked, .emailNotVerified, .signInToContinue, .factorLimitReached, .stepUpRequired, .passwordRejected,
             .linkExpired, .featureNotOffered, .passkeyRejected, .passkeyTaken, .reauthenticationRequired, .unauthenticated,
             .invalidToken, .sessionEnded, .refreshRejected, .invalidPhone, .accountNotFound, .phoneTaken, .codeRejected,
             .smsUnavailable, .providerSignIn, .lastSignInMethod, .formExpired, .methodNotOffered, .administration, .notFound,
             .methodNotAllowed, .unexpected:
            nil
        }
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
