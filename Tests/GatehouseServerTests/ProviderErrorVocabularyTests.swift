import Foundation
import GatehouseCore
import GatehouseHTTP
import GraphQLSurface
import LoginCore
import SupabaseSurface
import Testing
import WebSurface

/// Sign in with a provider's failures on each surface: REST (seed 002's words), GraphQL,
/// Supabase Auth (GoTrue's codes) and the web screen (LoginCore's outcomes).
@Suite struct ProviderErrorVocabularyTests {
    static let every: [GatehouseError] = [
        .providerSignIn(.cancelled), .providerSignIn(.providerUnavailable), .providerSignIn(.invalidCode),
        .providerSignIn(.invalidToken("nonce mismatch")), .providerSignIn(.invalidFlow), .providerSignIn(.linkRequired),
        .providerSignIn(.identityTaken), .providerSignIn(.notConfigured), .providerSignIn(.redirectNotAllowed), .lastSignInMethod,
    ]

    @Test func everyProviderFailureHasItsRESTStatusCodeAndSeed002Message() {
        let rendered = Self.every.map { APIError($0) }.map { "\($0.status.code) \($0.code)" }
        #expect(rendered == [
            "400 provider_cancelled", "502 provider_unavailable", "401 provider_code_rejected", "401 invalid_id_token",
            "400 invalid_flow_state", "409 link_required", "409 identity_taken", "404 provider_disabled", "400 redirect_not_allowed",
            "409 last_sign_in_method",
        ])
        #expect(APIError(.providerSignIn(.invalidCode)).message == "Authentication failed. Please try again.")
        #expect(APIError(.providerSignIn(.providerUnavailable)).message == "Google sign-in failed. Please try again.")
    }

    @Test func everyProviderFailureHasItsGoTrueCode() {
        let rendered = Self.every.map { GoTrueError($0) }.map { "\($0.status.code) \($0.errorCode)" }
        #expect(rendered == [
            "400 access_denied", "502 unexpected_failure", "400 bad_oauth_callback", "400 bad_jwt", "404 flow_state_not_found",
            "422 email_exists", "422 identity_already_exists", "400 provider_disabled", "400 validation_failed",
            "422 single_identity_not_deletable",
        ])
    }

    @Test func everyProviderFailureHasItsGraphQLCodeFromTheRESTRendering() {
        let codes = Self.every.map { GraphQLFailure.make($0, messages: MessageCatalogue()).extensions["code"]?.string ?? "" }
        #expect(codes == Self.every.map { APIError($0).code.rawValue.uppercased() })
    }

    @Test func theWebScreenShowsEachAsLoginCoresProviderOutcome() {
        let outcomes = Self.every.map { WebController.failure(for: $0) }
        #expect(outcomes == [
            .providerCancelled, .providerFailed, .providerCodeRejected, .providerCodeRejected, .providerCodeRejected,
            .providerLinkRequired, .providerCodeRejected, .providerFailed, .providerCodeRejected, .providerLinkRequired,
        ])
    }
}
