import GatehouseCore
import Hummingbird

extension WebCookies {
    /// Binds a provider flow to the browser that started it; `Lax`, so the provider's redirect carries it.
    package static let providerFlow = "__Host-gatehouse-oidc"
}

extension Response {
    /// Sends a browser to the provider to begin a flow, binding the flow to it with a cookie.
    ///
    /// Every surface that starts a provider flow (REST's and the web's Google routes, GoTrue's
    /// `/authorize`) answers with this, so the binding is set the same way everywhere.
    package static func providerRedirect(to started: ProviderStart) -> Response {
        var response = Response.redirect(to: started.url, type: .found)
        response.headers[.cacheControl] = "no-store"
        response.setCookie(Cookie(
            name: WebCookies.providerFlow, value: started.binding, maxAge: Int(ConfiguredProvider.flowLifetime), path: "/",
            secure: true, httpOnly: true, sameSite: started.answeredByPost ? .none : .lax
        ))
        return response
    }
}
