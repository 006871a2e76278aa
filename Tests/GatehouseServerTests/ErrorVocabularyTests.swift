import Foundation
import GatehouseCore
import GatehouseHTTP
import GraphQLSurface
import LoginCore
import SupabaseSurface
import Testing
import WebSurface

/// One domain error enum, rendered by each surface: REST, GraphQL, Supabase Auth and the web.
@Suite struct ErrorVocabularyTests {
    static let every: [GatehouseError] = [
        .invalidRequest("email is required"), .invalidCredentials, .accountLocked, .rateLimited(retryAfter: 42),
        .overloaded(retryAfter: 1), .unauthenticated, .invalidToken("The access token has expired"), .sessionEnded,
        .refreshRejected(.invalidRefreshToken), .refreshRejected(.reused), .refreshRejected(.sessionExpired),
        .refreshRejected(.sessionRevoked), .refreshRejected(.accountLocked),
    ]

    @Test func everyErrorHasItsRESTStatusAndCode() {
        let rendered = Self.every.map { APIError($0) }.map { "\($0.status.code) \($0.code)" }
        #expect(rendered == [
            "400 invalid_request", "401 invalid_credentials", "403 account_locked", "429 rate_limited", "503 server_busy",
            "401 unauthorized", "401 invalid_token", "401 invalid_token", "401 invalid_refresh_token",
            "401 refresh_token_reused", "401 session_expired", "401 session_revoked", "403 account_locked",
        ])
        #expect(APIError(.rateLimited(retryAfter: 42)).retryAfter == 42)
    }

    @Test func everyErrorHasItsGraphQLCode() {
        let codes = Self.every.map { GraphQLFailure.make($0, messages: MessageCatalogue()).extensions["code"]?.string ?? "" }
        #expect(codes == [
            "BAD_USER_INPUT", "INVALID_CREDENTIALS", "ACCOUNT_LOCKED", "RATE_LIMITED", "SERVER_BUSY", "UNAUTHENTICATED",
            "UNAUTHENTICATED", "UNAUTHENTICATED", "INVALID_REFRESH_TOKEN", "REFRESH_TOKEN_REUSED", "SESSION_EXPIRED",
            "SESSION_REVOKED", "ACCOUNT_LOCKED",
        ])
    }

    @Test func everyErrorHasItsGoTrueCode() {
        let rendered = Self.every.map { GoTrueError($0) }.map { "\($0.status.code) \($0.errorCode)" }
        #expect(rendered == [
            "400 validation_failed", "400 invalid_credentials", "400 user_banned", "429 over_request_rate_limit",
            "503 unexpected_failure", "401 no_authorization", "403 bad_jwt", "403 session_not_found",
            "400 refresh_token_not_found", "400 refresh_token_already_used", "400 session_expired", "400 session_not_found",
            "400 user_banned",
        ])
    }

    @Test func everyErrorHasItsWebOutcome() {
        let outcomes = Self.every.map { WebController.failure(for: $0) }
        #expect(outcomes == [
            .serverError(status: 400), .invalidCredentials, .accountLocked, .rateLimited(retryAfter: 42),
            .serverError(status: 503), .sessionExpired, .sessionExpired, .sessionExpired, .sessionExpired, .sessionExpired,
            .sessionExpired, .sessionExpired, .sessionExpired,
        ])
    }
}
