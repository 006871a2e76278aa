import Foundation
import GatehouseCore
import GatehouseModel
import Logging

/// Sign in with GitHub, which speaks OAuth 2.0 rather than OpenID Connect: the code is traded
/// for an access token, and the person is read from `GET /user` and `GET /user/emails`.
///
/// Only the primary email, and only when GitHub has verified it, is the identity's email; the
/// subject is GitHub's numeric user id (a login can be renamed and reused). The base URL is
/// `https://github.com` or a GitHub Enterprise Server's, whose API is under `/api/v3`. There
/// are no ID tokens, so an app cannot present one.
package struct GitHubProvider: ExternalProvider {
    package let client: OIDCProviderClient
    package let settings: ExternalProviderSettings

    package init(settings: ExternalProviderSettings, logger: Logger) {
        self.settings = settings
        client = OIDCProviderClient(settings: settings, logger: logger)
    }

    /// `https://api.github.com` for github.com; `<base>/api/v3` for GitHub Enterprise Server.
    package var apiBase: String {
        URL(string: settings.issuer)?.host == "github.com" ? "https://api.github.com" : settings.issuer + "/api/v3"
    }

    package func authorizationEndpoint(now: Date) async throws -> String { settings.issuer + "/login/oauth/authorize" }

    package func identity(fromCode code: String, redirectURI: String, verifier: String?, nonce: NonceCheck, now: Date) async throws
        -> ExternalIdentity {
        let tokens = try await client.exchange(
            code: code, redirectURI: redirectURI, verifier: verifier, now: now, tokenEndpoint: settings.issuer + "/login/oauth/access_token"
        )
        guard let access = tokens.accessToken, !access.isEmpty else { throw ProviderFailure.invalidCode }
        guard let user = try? JSONDecoder().decode(GitHubUser.self, from: try await client.document(apiBase + "/user", bearer: access)),
              let emails = try? JSONDecoder().decode([GitHubEmail].self, from: try await client.document(apiBase + "/user/emails", bearer: access))
        else { throw ProviderFailure.providerUnavailable }
        let primary = emails.first { $0.primary && $0.verified }.map { EmailAddress.normalized($0.email) }
        let name = user.name.flatMap { $0.isEmpty ? nil : $0 } ?? user.login
        return ExternalIdentity(
            provider: settings.identityProvider, subject: String(user.id), email: primary, emailVerified: primary != nil,
            name: name, picture: user.avatarURL
        )
    }

    package func verify(_ token: String, nonce: NonceCheck, now: Date) async throws -> ExternalIdentity {
        throw ProviderFailure.invalidToken("GitHub issues no ID tokens")
    }
}

/// `GET /user`: what GitHub says about the signed-in person.
struct GitHubUser: Decodable {
    let id: Int64
    let login: String
    let name: String?
    let avatarURL: String?
    enum CodingKeys: String, CodingKey { case id, login, name, avatarURL = "avatar_url" }
}

/// One entry of `GET /user/emails`.
struct GitHubEmail: Decodable {
    let email: String
    let primary: Bool
    let verified: Bool
}
