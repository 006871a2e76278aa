import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird
import LoginCore

/// The provider whose flow a page came back from, and what its button says now.
package struct ProviderLanded: Sendable {
    package var provider: SignInMethods.Method?
    package var button = ProviderButtonState()
    package init(provider: SignInMethods.Method? = nil, button: ProviderButtonState = ProviderButtonState()) {
        self.provider = provider
        self.button = button
    }
}

extension WebController {
    /// The providers the screens show: configured and listed in `signIn.methods`, in its order.
    package var offeredProviders: [ConfiguredProvider] {
        let methods = services.pipeline.settings.signInMethods
        return (services.providers?.registry ?? []).filter { methods.offers($0.id) }
    }

    /// Whether the provider buttons come before the screen's own fields (Peated) or after them (UrbanNest).
    package var providersFirst: Bool {
        let methods = services.pipeline.settings.signInMethods.methods
        guard let first = methods.firstIndex(where: \.isProvider) else { return false }
        return methods.firstIndex(where: { !$0.isProvider }).map { first < $0 } ?? true
    }

    package func addProviderRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        pages.get("/welcome", use: showWelcome)
        pages.post("/welcome", use: saveWelcome)
        pages.post("/home/:provider/unlink", use: unlinkProvider)
    }

    /// Where a provider (or Home's unlink) sent the browser back to, and which provider, if the page was told.
    package func landing(_ request: Request) -> (ProviderLanding, ConfiguredProvider)? {
        let query = request.uri.queryParameters
        guard let outcome = query["signin"].flatMap({ ProviderLanding(rawValue: String($0)) }),
              let id = query["provider"].map({ SignInMethods.Method(rawValue: String($0)) }),
              let provider = offeredProviders.first(where: { $0.id == id })
        else { return nil }
        return (outcome, provider)
    }

    /// The landing provider's button after it sent the browser back (`?signin=` on the page).
    package func providerState(_ request: Request) -> ProviderLanded {
        guard let (landing, provider) = landing(request), let outcome = landing.outcome else { return ProviderLanded() }
        let button = ProviderButton(configuration: configuration, provider: provider.descriptor)
        var state = ProviderButtonState()
        // The flow began on an earlier page (its `…_started` came with that request).
        _ = button.send(.tapped, to: &state)
        WebAnalytics.record(button.send(.finished(outcome), to: &state))
        return ProviderLanded(provider: provider.id, button: state)
    }

    /// The provider partial's values: one button per provider, the landing one with its outcome.
    package func providerContext(_ landed: ProviderLanded) -> [String: Any] {
        let m = configuration.messages
        let buttons: [[String: Any]] = offeredProviders.map { provider in
            let state = landed.provider == provider.id ? landed.button : ProviderButtonState()
            return [
                "id": provider.id.rawValue, "label": provider.descriptor.text(.button, in: m),
                "signingIn": provider.descriptor.text(.signingIn, in: m), ProviderLogo(provider.kind).templateFlag: true,
                "error": state.error ?? "", "hasError": state.error != nil, "notice": state.notice ?? "", "hasNotice": state.notice != nil,
            ]
        }
        return [
            "showProviders": !buttons.isEmpty, "providersFirst": !buttons.isEmpty && providersFirst, "providerButtons": buttons,
            "orDivider": m.text(.orDivider),
        ]
    }

    /// Home's ways in: each provider, linked or not, and the outcome of the last link or unlink.
    package func homeProviderContext(_ request: Request, user: UserRecord) async throws -> [String: Any] {
        let offered = offeredProviders
        guard !offered.isEmpty else { return ["offersProviders": false] }
        let identities = Set(try await services.profiles.identities(of: user.id).map(\.provider))
        let landed = providerState(request)
        let lastMethod = landing(request).flatMap { $0.0 == .lastMethod ? $0.1.id : nil }
        let m = configuration.messages
        let rows: [[String: Any]] = offered.map { provider in
            let linked = identities.contains(provider.settings.identityProvider)
            var error = landed.provider == provider.id ? landed.button.error : nil
            if lastMethod == provider.id { error = m.text(.lastSignInMethod) }
            let notice = landed.provider == provider.id ? landed.button.notice : nil
            return [
                "id": provider.id.rawValue, "name": provider.settings.label, "linked": linked, "status": linked ? "Linked" : "Not linked",
                "linkLabel": provider.descriptor.text(.link, in: m), "unlinkLabel": provider.descriptor.text(.unlink, in: m),
                "error": error ?? "", "hasError": error != nil, "notice": notice ?? "", "hasNotice": notice != nil,
            ]
        }
        return ["offersProviders": true, "providerRows": rows, "providersTitle": m.text(.providersTitle)]
    }

    /// The profile step a new provider account lands on (UrbanNest's "Profile Setup").
    @Sendable package func showWelcome(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let user = context.identity?.user else { return Response.redirect(to: "/login", type: .normal) }
        return welcomePage(user: user, name: user.name, error: nil, csrf: WebCookies.newToken(), status: .ok)
    }

    @Sendable package func saveWelcome(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        let fields = try await WebForm.decode(WebForm.Profile.self, from: request, context: context)
        guard let user = context.identity?.user else { return Response.redirect(to: "/login", type: .normal) }
        let typed = String((fields.name ?? "").prefix(200))
        do {
            _ = try await services.profiles.rename(user, to: typed)
        } catch let error as PersonName.Problem {
            // Empty is the app's copy; anything else is the name rule's plain reason (400).
            let message = error == .empty ? configuration.messages.text(.nameRequired) : error.message
            let shown = String(typed.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }.prefix(100))
            return welcomePage(user: user, name: shown, error: message, csrf: fields.csrf ?? "", status: error == .empty ? .unprocessableContent : .badRequest)
        }
        return Response.redirect(to: "/home", type: .normal)
    }

    private func welcomePage(user: UserRecord, name: String, error: String?, csrf: String, status: HTTPResponse.Status) -> Response {
        let m = configuration.messages
        let body = render([
            "appName": configuration.appName, "title": m.text(.profileTitle), "subtitle": m.text(.profileSubtitle),
            "nameLabel": m.text(.nameLabel), "name": name, "email": user.email ?? "", "save": m.text(.profileSave),
            "nameError": error ?? "", "hasNameError": error != nil, "csrf": csrf,
        ], "welcome")
        return html(body, status: status, csrf: csrf)
    }

    /// The offered provider the route's `:provider` names; any other is no route.
    package func routeProvider(_ context: GatehouseRequestContext) throws -> ConfiguredProvider {
        let id = SignInMethods.Method(rawValue: context.parameters.get("provider") ?? "")
        guard let provider = offeredProviders.first(where: { $0.id == id }) else { throw GatehouseError.notFound }
        return provider
    }

    /// Removes a provider from the signed-in account, unless it is the last way in.
    @Sendable package func unlinkProvider(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let user = context.identity?.user else { return Response.redirect(to: "/login", type: .normal) }
        let provider = try routeProvider(context)
        let id = provider.id
        do {
            try await services.providerSignIn().unlink(provider.settings.identityProvider, from: user.id)
        } catch GatehouseError.lastSignInMethod {
            return Response.redirect(to: ProviderLanding.lastMethod.url("/home", provider: id), type: .normal)
        }
        return Response.redirect(to: "/home?unlinked=\(id.rawValue)", type: .normal)
    }
}

/// Which mark a provider's button shows.
package enum ProviderLogo: String, Sendable {
    case google, apple, github, microsoft, generic

    /// The template's section that draws this mark.
    var templateFlag: String { "logo_" + rawValue }

    init(_ kind: ProviderKind) {
        switch kind {
        case .google: self = .google
        case .apple: self = .apple
        case .github: self = .github
        case .microsoft: self = .microsoft
        case .oidc: self = .generic
        }
    }
}
