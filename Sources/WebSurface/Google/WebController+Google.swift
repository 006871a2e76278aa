import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import Hummingbird
import LoginCore

extension WebController {
    /// Whether the screens show the Google button: the app lists `google` and a provider is configured.
    package var offersGoogle: Bool {
        services.providers != nil && services.pipeline.settings.signInMethods.offers(.google)
    }

    /// Whether Google comes before the screen's own fields (Peated) or after them (UrbanNest).
    package var googleFirst: Bool {
        let methods = services.pipeline.settings.signInMethods.methods
        guard let google = methods.firstIndex(of: .google) else { return false }
        return methods.firstIndex(where: { $0 != .google }).map { google < $0 } ?? true
    }

    package func addGoogleRoutes(to pages: RouterGroup<GatehouseRequestContext>) {
        pages.get("/welcome", use: showWelcome)
        pages.post("/welcome", use: saveWelcome)
        pages.post("/home/google/unlink", use: unlinkGoogle)
    }

    /// Where the provider (or Home's unlink) sent the browser back to, if the page was told.
    package static func landing(_ request: Request) -> ProviderLanding? {
        request.uri.queryParameters["google"].flatMap { ProviderLanding(rawValue: String($0)) }
    }

    /// The button's state after the provider sent the browser back (`?google=` on the page).
    package func providerState(_ request: Request) -> ProviderButtonState {
        var state = ProviderButtonState()
        if let outcome = Self.landing(request)?.outcome {
            // The flow began on an earlier page (its `login_google_started` came with that request).
            _ = providerButton.send(.tapped, to: &state)
            WebAnalytics.record(providerButton.send(.finished(outcome), to: &state))
        }
        return state
    }

    /// The Google partial's values.
    package func providerContext(_ state: ProviderButtonState) -> [String: Any] {
        let m = configuration.messages
        return [
            "showGoogle": offersGoogle, "googleFirst": offersGoogle && googleFirst, "googleLabel": m.text(.providerButton),
            "orDivider": m.text(.orDivider), "googleError": state.error ?? "", "hasGoogleError": state.error != nil,
            "googleNotice": state.notice ?? "", "hasGoogleNotice": state.notice != nil,
        ]
    }

    /// Home's Google section: linked or not, and the outcome of the last link or unlink.
    package func homeGoogleContext(_ request: Request, user: UserRecord) async throws -> [String: Any] {
        guard offersGoogle else { return ["offersGoogle": false] }
        let linked = try await services.profiles.hasIdentity(.google, userID: user.id)
        var context = providerContext(providerState(request))
        let m = configuration.messages
        if Self.landing(request) == .lastMethod {
            context["googleError"] = m.text(.lastSignInMethod)
            context["hasGoogleError"] = true
        }
        context["offersGoogle"] = true
        context["googleLinked"] = linked
        context["googleStatus"] = linked ? "Linked" : "Not linked"
        context["linkLabel"] = m.text(.linkProvider)
        context["unlinkLabel"] = m.text(.unlinkProvider)
        return context
    }

    /// The profile step a new Google account lands on (UrbanNest's "Profile Setup").
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

    /// Removes Google from the signed-in account, unless it is the last way in.
    @Sendable package func unlinkGoogle(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        guard let user = context.identity?.user else { return Response.redirect(to: "/login", type: .normal) }
        do {
            try await services.providerSignIn().unlink(.google, from: user.id)
        } catch GatehouseError.lastSignInMethod {
            return Response.redirect(to: ProviderLanding.lastMethod.url("/home"), type: .normal)
        }
        return Response.redirect(to: "/home?unlinked=google", type: .normal)
    }
}
