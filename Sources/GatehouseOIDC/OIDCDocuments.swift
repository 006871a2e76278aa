import Foundation
import GatehouseCore

/// The parts of a provider's discovery document (`/.well-known/openid-configuration`) Gatehouse uses.
package struct OIDCDiscovery: Decodable, Sendable, Equatable {
    package let issuer: String
    package let authorizationEndpoint: String
    package let tokenEndpoint: String
    package let jwksURI: String
    /// How the token endpoint wants the client to prove itself; absent means
    /// `client_secret_basic` (OpenID Connect Discovery §3).
    package var tokenEndpointAuthMethods: [String]?
    /// Where tokens are revoked (RFC 7009; Apple's `/auth/revoke`), if the provider says.
    package var revocationEndpoint: String?

    package enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case tokenEndpointAuthMethods = "token_endpoint_auth_methods_supported"
        case revocationEndpoint = "revocation_endpoint"
    }

    /// Whether the client secret goes in the form (`client_secret_post`) rather than HTTP Basic:
    /// only when the provider lists `client_secret_post` and not `client_secret_basic`.
    package var wantsSecretInForm: Bool {
        guard let methods = tokenEndpointAuthMethods else { return false }
        return methods.contains("client_secret_post") && !methods.contains("client_secret_basic")
    }
}

/// A token endpoint's answer to an authorization code: the ID token, and the access token
/// (GitHub's only answer, for its user API).
package struct OIDCTokenResponse: Decodable, Sendable {
    package let idToken: String?
    package let accessToken: String?
    package let refreshToken: String?
    package enum CodingKeys: String, CodingKey { case idToken = "id_token", accessToken = "access_token", refreshToken = "refresh_token" }
}

/// A token endpoint's refusal (RFC 6749 §5.2).
package struct OIDCErrorResponse: Decodable, Sendable {
    package let error: String
}

/// How long a fetched document may be reused: `Cache-Control: max-age`, bounded to 1 minute … 1 day.
package enum CacheLifetime {
    package static let fallback: TimeInterval = 3600

    package static func seconds(fromCacheControl value: String?) -> TimeInterval {
        guard let value else { return fallback }
        let directives = value.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if directives.contains("no-store") || directives.contains("no-cache") { return 60 }
        guard let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }),
              let seconds = TimeInterval(maxAge.dropFirst("max-age=".count))
        else { return fallback }
        return min(max(seconds, 60), 24 * 3600)
    }
}
