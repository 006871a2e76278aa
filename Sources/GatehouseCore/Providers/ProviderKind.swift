import Foundation
import GatehouseModel
import LoginCore

/// Which protocol a configured provider speaks, and what that implies: its scopes, whether it
/// has a nonce and PKCE, whether its emails are trusted by default, and the name sign-ins,
/// audits and identities carry.
///
/// An app file names a provider by its id (`"google"`, `"apple"`, `"github"`, `"microsoft"`,
/// or any other id with `"type": "oidc"`); the id of a built-in provider is its kind.
public enum ProviderKind: String, Sendable, Equatable, CaseIterable, Codable {
    case google
    case apple
    /// OAuth 2.0 with GitHub's user API; not OpenID Connect.
    case github
    /// Microsoft Entra ID (v2 endpoints), by tenant.
    case microsoft
    /// Any OpenID Connect issuer, found by discovery.
    case oidc

    /// The kind a built-in id implies; `nil` for an id the app file must give a `type` to.
    public init?(builtIn id: SignInMethods.Method) {
        switch id {
        case .google: self = .google
        case .apple: self = .apple
        case .github: self = .github
        case .microsoft: self = .microsoft
        default: return nil
        }
    }

    /// Whether the provider issues ID tokens (everything but GitHub).
    package var speaksOpenIDConnect: Bool { self != .github }

    /// The scopes a sign-in asks for.
    package var scopes: String {
        switch self {
        case .google, .microsoft, .oidc: "openid email profile"
        case .apple: "name email"
        case .github: "read:user user:email"
        }
    }

    /// Whether the authorization request carries a PKCE challenge (Apple documents none).
    package var usesPKCE: Bool { self != .apple }

    /// Whether the answer comes back as a cross-site form `POST` (Apple's `form_post`).
    package var postsItsAnswer: Bool { self == .apple }

    /// Whether a verified email from this provider may link to an existing account unless the
    /// app file says otherwise. Microsoft's `email` claim is editable by a tenant's admins, and
    /// an arbitrary issuer is unknown, so neither is trusted by default.
    package var trustsEmailByDefault: Bool {
        switch self {
        case .google, .apple, .github: true
        case .microsoft, .oidc: false
        }
    }

    /// How audits and metrics name sign-ins with this provider.
    package var method: SignInMethodName {
        switch self {
        case .google: .google
        case .apple: .apple
        case .github: .github
        case .microsoft: .microsoft
        case .oidc: .oidc
        }
    }

    /// Who vouches for identities of provider `id`: the kind for built-ins, `oidc:<id>` otherwise.
    package func identityProvider(for id: SignInMethods.Method) -> IdentityProvider {
        switch self {
        case .google: .google
        case .apple: .apple
        case .github: .github
        case .microsoft: .microsoft
        case .oidc: IdentityProvider(rawValue: "oidc:" + id.rawValue)
        }
    }
}
