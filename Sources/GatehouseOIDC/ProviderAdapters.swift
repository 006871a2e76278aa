import Foundation
import GatehouseCore
import Logging

/// The adapter each kind of provider runs with: GitHub's OAuth and user API, or OpenID Connect
/// (with Apple's signed client secret for Apple).
package enum ProviderAdapters {
    package static func make(_ settings: ExternalProviderSettings, logger: Logger) async throws -> any ExternalProvider {
        switch settings.kind {
        case .github:
            return GitHubProvider(settings: settings, logger: logger)
        case .apple:
            guard let key = settings.appleKey else { throw ExternalProviderError("Sign in with Apple needs the team's key") }
            let secret = try await AppleClientSecret(key: key, servicesID: settings.clientIDs[0], audience: settings.issuer)
            return OpenIDConnectProvider(settings: settings, logger: logger, appleSecret: secret)
        case .google, .microsoft, .oidc:
            return OpenIDConnectProvider(settings: settings, logger: logger)
        }
    }
}
