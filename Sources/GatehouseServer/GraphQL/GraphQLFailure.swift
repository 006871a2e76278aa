import GraphQL
import LoginCore

/// GraphQL errors with an `extensions.code`, in the style Apollo servers use.
///
/// Codes: `INVALID_CREDENTIALS`, `ACCOUNT_LOCKED`, `UNAUTHENTICATED`, `BAD_USER_INPUT`,
/// `GRAPHQL_VALIDATION_FAILED`, `RATE_LIMITED`, the refresh failures in upper case
/// (`INVALID_REFRESH_TOKEN`, `REFRESH_TOKEN_REUSED`, `SESSION_EXPIRED`, `SESSION_REVOKED`) and
/// `INTERNAL_SERVER_ERROR`.
enum GraphQLFailure {
    static func make(code: String, message: String, locations: [SourceLocation] = [], path: IndexPath = []) -> GraphQLError {
        GraphQLError(message: message, locations: locations, path: path, extensions: ["code": .string(code)])
    }

    /// A document that does not parse or does not fit the schema.
    static func badRequest(_ message: String, locations: [SourceLocation] = []) -> GraphQLError {
        make(code: "GRAPHQL_VALIDATION_FAILED", message: message, locations: locations)
    }

    /// Anything unexpected; its description is never sent, as it could quote request data.
    static func internalError(locations: [SourceLocation] = [], path: IndexPath = []) -> GraphQLError {
        make(code: "INTERNAL_SERVER_ERROR", message: "Something went wrong. Please try again.", locations: locations, path: path)
    }

    /// The GraphQL rendering of a domain error; an invalid-credentials message is the app's copy.
    static func make(
        _ error: GatehouseError, messages: MessageCatalogue, locations: [SourceLocation] = [], path: IndexPath = []
    ) -> GraphQLError {
        let (code, message, retryAfter): (String, String, Int?) = switch error {
        case .invalidRequest(let message): ("BAD_USER_INPUT", message, nil)
        case .payloadTooLarge(let limit): ("BAD_USER_INPUT", "The request body must be at most \(limit) bytes", nil)
        case .invalidCredentials: ("INVALID_CREDENTIALS", messages.text(.invalidCredentials), nil)
        case .accountLocked: ("ACCOUNT_LOCKED", messages.text(.accountLocked), nil)
        case .rateLimited(let seconds): ("RATE_LIMITED", messages.rateLimitedText(seconds: seconds), seconds)
        case .resendTooSoon(let seconds):
            ("RESEND_TOO_SOON", messages.text(.resendWait, ["time": WaitDuration.text(seconds: seconds)]), seconds)
        case .overloaded(let seconds): ("SERVER_BUSY", "The server is busy. Please try again shortly.", seconds)
        case .unauthenticated: ("UNAUTHENTICATED", "A Bearer access token is required", nil)
        case .invalidToken(let message): ("UNAUTHENTICATED", message, nil)
        case .sessionEnded: ("UNAUTHENTICATED", "The session has ended", nil)
        case .refreshRejected(let failure): (failure.rawValue.uppercased(), failure.message, nil)
        case .methodNotOffered(let method):
            ("SIGN_IN_METHOD_NOT_OFFERED", "This app does not offer sign-in with \(method.displayName)", nil)
        case .invalidPhone, .accountNotFound, .phoneTaken, .codeRejected, .smsUnavailable, .providerSignIn, .lastSignInMethod:
            // One wording for every surface: the REST rendering's code and message.
            { rest in (rest.code.uppercased(), rest.message, rest.retryAfter) }(APIError(error))
        }
        var extensions: [String: Map] = ["code": .string(code)]
        if let retryAfter { extensions["retryAfter"] = .number(Number(retryAfter)) }
        return GraphQLError(message: message, locations: locations, path: path, extensions: extensions)
    }
}
