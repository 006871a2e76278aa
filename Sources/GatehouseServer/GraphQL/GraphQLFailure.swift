import GraphQL

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

    /// The GraphQL code of a REST error code.
    static func code(for error: APIError) -> String {
        switch error.code {
        case "invalid_request": "BAD_USER_INPUT"
        case "unauthorized", "invalid_token": "UNAUTHENTICATED"
        case "server_error": "INTERNAL_SERVER_ERROR"
        default: error.code.uppercased()
        }
    }
}
