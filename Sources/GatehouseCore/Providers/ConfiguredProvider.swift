import Crypto
import Foundation
import Logging
import LoginCore

/// Everything the server needs to sign people in with one provider of the registry.
///
/// A flow's secrets are never stored: its nonce and PKCE verifier are HMACs of its `state`
/// under a server key every instance shares, so any instance can finish a flow another began.
package struct ConfiguredProvider: Sendable {
    package let settings: ExternalProviderSettings
    /// The provider itself, behind the core's seam.
    package let provider: any ExternalProvider
    package let flowKey: SymmetricKey
    /// `<public URL>/auth/<id>/callback`.
    package let callbackURL: String

    /// How long a started flow waits for the provider's answer.
    package static let flowLifetime: TimeInterval = 5 * 60
    /// How long an app has to exchange the code a finished flow returned to it.
    package static let returnCodeLifetime: TimeInterval = 60
    package static let secretName = "oidc-flow-key"

    /// Sign-in with one provider, with the flow key every instance shares.
    package static func open(
        _ settings: ExternalProviderSettings, provider: any ExternalProvider, secrets: some SecretRepository, publicURL: String
    ) async throws -> ConfiguredProvider {
        ConfiguredProvider(
            settings: settings, provider: provider, flowKey: try await secrets.key(named: secretName), publicURL: publicURL
        )
    }
    /// ID tokens longer than this are refused before they are parsed.
    package static let maximumIDTokenBytes = 16 * 1024

    package init(settings: ExternalProviderSettings, provider: any ExternalProvider, flowKey: SymmetricKey, publicURL: String) {
        self.settings = settings
        self.provider = provider
        self.flowKey = flowKey
        callbackURL = (publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL) + "/auth/\(settings.id.rawValue)/callback"
    }

    /// The client id the server's own flows use (the first configured: the web client).
    package var webClientID: String { settings.clientIDs[0] }

    package var id: SignInMethods.Method { settings.id }
    package var kind: ProviderKind { settings.kind }

    package func nonce(forState state: String) -> String { derive("nonce", state) }

    package func codeVerifier(forState state: String) -> String { derive("pkce", state) }

    /// The authorization request a browser is sent to.
    package func authorizationURL(endpoint: String, state: String) -> String {
        var components = URLComponents(string: endpoint) ?? URLComponents()
        var items = components.queryItems ?? []
        items += [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: webClientID),
            URLQueryItem(name: "redirect_uri", value: callbackURL),
            URLQueryItem(name: "scope", value: kind.scopes),
            URLQueryItem(name: "state", value: state),
        ]
        if kind.speaksOpenIDConnect { items.append(URLQueryItem(name: "nonce", value: nonce(forState: state))) }
        if kind.usesPKCE {
            items += [
                URLQueryItem(name: "code_challenge", value: Self.challenge(for: codeVerifier(forState: state))),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ]
        }
        if kind.postsItsAnswer { items.append(URLQueryItem(name: "response_mode", value: "form_post")) }
        if let domain = settings.hostedDomain { items.append(URLQueryItem(name: "hd", value: domain)) }
        components.queryItems = items
        // `+` is legal in a query but read as a space by form decoders; encode it.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? endpoint
    }

    /// Refuses proofs of impossible size before anything is counted or fetched.
    package func checkShape(_ proof: ProviderProof) throws {
        switch proof {
        case .idToken(let token, let nonce, let name):
            guard !token.isEmpty, token.utf8.count <= Self.maximumIDTokenBytes else {
                throw GatehouseError.invalidRequest("id_token must be 1 to \(Self.maximumIDTokenBytes) bytes")
            }
            if let nonce, nonce.isEmpty || nonce.utf8.count > 256 { throw GatehouseError.invalidRequest("nonce must be 1 to 256 bytes") }
            if let name, name.utf8.count > 400 { throw GatehouseError.invalidRequest("name must be at most 400 bytes") }
        case .authorizationCode(let code, let redirectURI, let verifier):
            guard !code.isEmpty, code.utf8.count <= 2048 else { throw GatehouseError.invalidRequest("code must be 1 to 2048 bytes") }
            if let redirectURI, redirectURI.utf8.count > 2048 || URL(string: redirectURI)?.scheme == nil {
                throw GatehouseError.invalidRequest("redirect_uri must be an absolute URL")
            }
            // Only our callback and the allow-list: a code issued for another site's
            // redirect_uri is refused before the provider is asked to exchange it.
            if let redirectURI, redirectURI != callbackURL, !settings.allowsRedirect(to: redirectURI) {
                throw GatehouseError.providerSignIn(.redirectNotAllowed)
            }
            if let verifier, !(43...128).contains(verifier.utf8.count) {
                throw GatehouseError.invalidRequest("code_verifier must be 43 to 128 characters")
            }
        case .callback(let state, let code, _, _):
            guard !state.isEmpty, state.utf8.count <= 128 else { throw GatehouseError.providerSignIn(.invalidFlow) }
            guard !code.isEmpty, code.utf8.count <= 2048 else { throw GatehouseError.invalidRequest("code must be 1 to 2048 bytes") }
        }
    }

    /// PKCE's S256 challenge: base64url(SHA-256(verifier)).
    package static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded()
    }

    private func derive(_ purpose: String, _ state: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data("\(purpose):\(state)".utf8), using: flowKey)).base64URLEncoded()
    }
}

extension ConfiguredProvider {
    /// The button's provider: its id and label.
    package var descriptor: ProviderDescriptor { ProviderDescriptor(id: settings.id, label: settings.label) }
}
