import Crypto
import Foundation
import GatehouseModel
import LoginCore

/// Signing in with the registry of external providers (Google, Apple, GitHub, Microsoft, any
/// OpenID Connect issuer): the browser and app flows, linking and unlinking, and the
/// `.provider` and `.flowCode` grants' verifier, which finds, links or creates the account by
/// GoTrue's rules, keyed on each provider's subject.
package struct ProviderSignIn: Sendable {
    let context: ServiceContext
    /// The configured providers, in the app file's order, each with its settings and flow key.
    package let registry: [ConfiguredProvider]
    let flows: any OIDCFlowRepository
    let throttles: any ThrottleRepository
    /// What providers gave with identities (Apple's relay flag, refresh tokens to revoke).
    let grants: any ProviderGrantRepository
    /// Seals the providers' refresh tokens at rest.
    let kek: SymmetricKey

    package init(
        context: ServiceContext, providers: [ConfiguredProvider], flows: any OIDCFlowRepository, throttles: any ThrottleRepository,
        grants: any ProviderGrantRepository, kek: SymmetricKey
    ) {
        self.context = context
        registry = providers
        self.flows = flows
        self.throttles = throttles
        self.grants = grants
        self.kek = kek
    }

    var now: Date { context.now }

    /// The configured provider `id`; a provider the app does not configure is not offered.
    package func provider(_ id: SignInMethods.Method) throws -> ConfiguredProvider {
        guard let provider = registry.first(where: { $0.id == id }) else { throw GatehouseError.methodNotOffered(id) }
        return provider
    }

    /// The configured provider whose identities `identity` names (a flow's provider).
    func provider(vouchingFor identity: IdentityProvider) -> ConfiguredProvider? {
        registry.first { $0.settings.identityProvider == identity }
    }

    /// Starts a sign-in with provider `id`: stores the flow and returns where to send the browser.
    ///
    /// - Parameters:
    ///   - purpose: what the callback does (web session, code back to an app, link).
    ///   - returnTo: a local path (web) or an allowed redirect target (app).
    ///   - clientState: the app's own state, echoed back.
    ///   - codeChallenge: the app's PKCE S256 challenge (required for apps).
    ///   - userID: the signed-in user, for a link.
    ///   - client: who asks; each address may start as many flows as it may make sign-in attempts.
    package func startFlow(
        _ id: SignInMethods.Method, purpose: OIDCFlowPurpose, returnTo: String? = nil, clientState: String? = nil, codeChallenge: String? = nil,
        userID: String? = nil, from client: ClientInfo
    ) async throws -> ProviderStart {
        let provider = try provider(id)
        try checkFlowRequest(provider, purpose: purpose, returnTo: returnTo, clientState: clientState, codeChallenge: codeChallenge)
        // Counted before anything is fetched or stored, so a flood of starts stores nothing.
        let policy = context.settings.abuse
        try await throttles.admit(.providerStarts(client.address), maximum: policy.addressLimit, per: policy.addressWindow, at: now)
        let state = RefreshToken.generate(prefix: "")
        // Asked before the flow is stored, so a provider that cannot be reached stores nothing.
        let url = try await requestURL(provider, state: state)
        let binding = RefreshToken.generate(prefix: "")
        try await flows.insertFlow(OIDCFlowRecord(
            id: RefreshToken.hash(state), provider: provider.settings.identityProvider, purpose: purpose, bindingHash: RefreshToken.hash(binding),
            returnTo: returnTo, clientState: clientState, codeChallenge: codeChallenge, userID: userID,
            createdAt: now, expiresAt: now.addingTimeInterval(ConfiguredProvider.flowLifetime)
        ))
        if Int.random(in: 0..<64) == 0 { _ = try? await flows.purgeFlows(before: now.addingTimeInterval(-3600)) }
        return ProviderStart(
            url: url, binding: binding, answeredByPost: provider.kind.postsItsAnswer,
            state: state
        )
    }

    private func checkFlowRequest(_ provider: ConfiguredProvider, purpose: OIDCFlowPurpose, returnTo: String?, clientState: String?, codeChallenge: String?) throws {
        if let clientState, clientState.utf8.count > 512 { throw GatehouseError.invalidRequest("state must be at most 512 bytes") }
        switch purpose {
        case .app:
            guard let returnTo, returnTo.utf8.count <= 2048, provider.settings.allowsRedirect(to: returnTo) else {
                throw GatehouseError.providerSignIn(.redirectNotAllowed)
            }
            guard let codeChallenge, codeChallenge.utf8.count == 43, Data(base64URLEncoded: codeChallenge) != nil else {
                throw GatehouseError.invalidRequest("code_challenge must be an S256 challenge (43 base64url characters)")
            }
        case .web:
            if let returnTo, ReturnPath.validated(returnTo, publicURL: context.settings.publicURL) == nil {
                throw GatehouseError.providerSignIn(.redirectNotAllowed)
            }
        case .link:
            // Home's link returns to a local page; an app's (Supabase's `link_identity`) to an allowed address.
            if let returnTo, ReturnPath.validated(returnTo, publicURL: context.settings.publicURL) == nil,
               returnTo.utf8.count > 2048 || !provider.settings.allowsRedirect(to: returnTo) {
                throw GatehouseError.providerSignIn(.redirectNotAllowed)
            }
        }
    }

    /// Where a browser handed a flow by an app (Supabase's `link_identity`) is sent: the
    /// provider's authorization request for `state`, rebuilt from the provider's endpoint.
    package func authorizationURL(_ id: SignInMethods.Method, state: String) async throws -> String {
        let provider = try provider(id)
        guard !state.isEmpty, state.utf8.count <= 128 else { throw GatehouseError.providerSignIn(.invalidFlow) }
        return try await requestURL(provider, state: state)
    }

    /// The provider's authorization request for `state`, at its (discovered) endpoint.
    private func requestURL(_ provider: ConfiguredProvider, state: String) async throws -> String {
        let endpoint = try await providerCall { try await provider.provider.authorizationEndpoint(now: now) }
        return provider.authorizationURL(endpoint: endpoint, state: state)
    }

    /// The provider said no (`error=access_denied`) or failed: the flow is used up and returned,
    /// so its surface can answer where it began.
    package func abandonFlow(_ id: SignInMethods.Method, state: String, binding: String?) async throws -> OIDCFlowRecord {
        try await boundFlow(try provider(id), state: state, binding: binding)
    }

    /// Finishes an app's flow after its callback was admitted: a one-time code for the app to
    /// exchange with its PKCE verifier, and the address to send the browser to.
    func returnToApp(_ admission: Admission) async throws -> String {
        guard let flow = admission.flow, flow.purpose == .app, let target = flow.returnTo else {
            throw GatehouseError.providerSignIn(.invalidFlow)
        }
        let code = RefreshToken.generate(prefix: "ghc_")
        try await flows.completeFlow(
            id: flow.id, userID: admission.user.id, isNewUser: admission.isNewUser, codeHash: RefreshToken.hash(code),
            expiresAt: now.addingTimeInterval(ConfiguredProvider.returnCodeLifetime)
        )
        return Self.appending(["code": code, "state": flow.clientState], to: target)
    }

    /// `target` with query items added (nil values skipped).
    package static func appending(_ items: [String: String?], to target: String) -> String {
        var components = URLComponents(string: target) ?? URLComponents()
        let added = items.sorted { $0.key < $1.key }.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
        components.queryItems = (components.queryItems ?? []) + added
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? target
    }

    /// A provider grant's verifier: validates the proof and finds, links or creates the account.
    func verify(_ provider: ConfiguredProvider, _ proof: ProviderProof) async throws -> Verified {
        let external = provider.provider
        let identity: ExternalIdentity
        var flow: OIDCFlowRecord?
        var postedName: String?
        switch proof {
        case .idToken(let token, let nonce, let name):
            identity = try await providerCall { try await external.verify(token, nonce: .hashed(nonce), now: now) }
            try await spend(identity, token: token)
            postedName = name
        case .authorizationCode(let code, let redirectURI, let codeVerifier):
            identity = try await providerCall {
                try await external.identity(
                    fromCode: code, redirectURI: redirectURI ?? provider.callbackURL, verifier: codeVerifier, nonce: .unchecked, now: now
                )
            }
        case .callback(let state, let code, let binding, let name):
            flow = try await boundFlow(provider, state: state, binding: binding)
            identity = try await providerCall {
                try await external.identity(
                    fromCode: code, redirectURI: provider.callbackURL,
                    verifier: provider.kind.usesPKCE ? provider.codeVerifier(forState: state) : nil,
                    nonce: provider.kind.speaksOpenIDConnect ? .exact(provider.nonce(forState: state)) : .unchecked, now: now
                )
            }
            postedName = name
        }
        // The email counts as verified only where the app trusts the provider's word.
        var trusted = identity.naming(postedName)
        trusted.emailVerified = identity.emailVerified && provider.settings.trustEmailVerified
        var verified = if let flow, flow.purpose == .link, let userID = flow.userID {
            try await link(trusted, toUser: userID)
        } else {
            try await account(for: trusted)
        }
        try await remember(identity, userID: verified.user.id)
        verified.flow = flow
        verified.method = provider.kind.method
        return verified
    }

    /// Remembers an ID token a client presented, hashed, until it expires: presenting it again
    /// (with its nonce, or without one) is refused. The token, not the nonce alone, is the key:
    /// it binds the nonce to one sign-in at the provider, and tokens without a nonce are covered
    /// too. One atomic counter in the database, so instances racing with one token admit it once.
    private func spend(_ identity: ExternalIdentity, token: String) async throws {
        let window = min(identity.usableUntil.timeIntervalSince(now), 24 * 3600)
        guard window > 0 else { return }
        let used = try await throttles.hit(.spentIDToken(RefreshToken.hash(token)), window: window + 1, at: now)
        guard used.count == 1 else {
            context.logger.notice("ID token refused", metadata: ["reason": "replayed"])
            throw GatehouseError.providerSignIn(.invalidToken("token already used"))
        }
    }

    /// The flow-code grant's verifier: the account a finished flow proved, once, to the app
    /// holding the PKCE verifier.
    func verifyFlowCode(_ code: String, verifier: String) async throws -> Verified {
        guard let flow = try await flows.exchangeFlowCode(hash: RefreshToken.hash(code), now: now),
              let challenge = flow.codeChallenge,
              ConstantTime.equal(ConfiguredProvider.challenge(for: verifier), challenge),
              let userID = flow.userID, let user = try await context.users.user(id: userID)
        else { throw GatehouseError.providerSignIn(.invalidFlow) }
        return Verified(user: user, isNewUser: flow.isNewUser, method: provider(vouchingFor: flow.provider)?.kind.method)
    }

    /// Consumes a flow by its state; it must be unused, unexpired, bound to this browser and
    /// begun with this provider (a code from one provider never finishes another's flow).
    private func boundFlow(_ provider: ConfiguredProvider, state: String, binding: String?) async throws -> OIDCFlowRecord {
        guard !state.isEmpty, state.utf8.count <= 128,
              let flow = try await flows.consumeFlow(id: RefreshToken.hash(state), now: now)
        else { throw GatehouseError.providerSignIn(.invalidFlow) }
        guard let binding, ConstantTime.equal(RefreshToken.hash(binding), flow.bindingHash) else {
            context.logger.notice("Provider flow refused", metadata: ["reason": "binding_mismatch", "purpose": "\(flow.purpose.rawValue)"])
            throw GatehouseError.providerSignIn(.invalidFlow)
        }
        guard flow.provider == provider.settings.identityProvider else {
            context.logger.notice("Provider flow refused", metadata: ["reason": "other_provider", "purpose": "\(flow.purpose.rawValue)"])
            throw GatehouseError.providerSignIn(.invalidFlow)
        }
        return flow
    }

    /// Runs provider work, turning its failures into the domain's errors.
    private func providerCall<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let failure as ProviderFailure {
            if case .invalidToken(let reason) = failure {
                context.logger.notice("ID token refused", metadata: ["reason": "\(reason)"])
            }
            throw GatehouseError.providerSignIn(failure)
        }
    }
}

extension ProviderSignIn: GrantVerifier {
    package var kinds: [GrantKind] { [.provider, .flowCode] }

    package func check(_ grant: Grant) throws {
        switch grant {
        case .provider(let id, let proof):
            try provider(id).checkShape(proof)
        case .flowCode(let code, let verifier):
            guard !code.isEmpty, code.utf8.count <= 128 else { throw GatehouseError.invalidRequest("auth_code must be 1 to 128 bytes") }
            guard (43...128).contains(verifier.utf8.count) else {
                throw GatehouseError.invalidRequest("code_verifier must be 43 to 128 characters")
            }
        case .password, .phoneCode, .emailLink, .emailCode, .passwordReset, .passkey, .secondFactor, .anonymous:
            throw grant.kind.notOffered
        }
    }

    package func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified? {
        switch grant {
        case .provider(let id, let proof): try await verify(provider(id), proof)
        case .flowCode(let code, let verifier): try await verifyFlowCode(code, verifier: verifier)
        case .password, .phoneCode, .emailLink, .emailCode, .passwordReset, .passkey, .secondFactor, .anonymous: nil
        }
    }
}

/// Where to send a browser to start a provider flow, and the cookie that binds the flow to it.
package struct ProviderStart: Sendable {
    package let url: String
    package let binding: String
    /// The provider answers with a cross-site form `POST` (Apple), which a `SameSite=Lax` cookie
    /// would not follow: the binding cookie must be `SameSite=None` (still `Secure`, host-only).
    package var answeredByPost = false
    /// The flow's state, for a flow an app hands to a browser (`/auth/<id>/continue`).
    package var state = ""

    package init(url: String, binding: String, answeredByPost: Bool = false, state: String = "") {
        self.url = url
        self.binding = binding
        self.answeredByPost = answeredByPost
        self.state = state
    }
}
