import GatehouseCore
import HTTPTypes
import Hummingbird

/// Resolves who is calling: the client's address, its user agent and its device token.
///
/// `X-Forwarded-For` is read only when the direct peer is a trusted proxy; then the address is
/// the right-most entry that is not itself a trusted proxy, so a client cannot choose its own
/// address by sending the header. Without trusted proxies the header is ignored.
package struct ClientMiddleware: RouterMiddleware {
    package typealias Context = GatehouseRequestContext
    package let trustedProxies: TrustedProxies
    /// Whether this server terminates TLS itself.
    package let servesTLS: Bool

    package init(trustedProxies: TrustedProxies, servesTLS: Bool) {
        self.trustedProxies = trustedProxies
        self.servesTLS = servesTLS
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.client = ClientInfo(
            address: address(request, peer: context.peerAddress),
            userAgent: request.headers[.userAgent].map { String($0.prefix(256)) },
            deviceToken: request.headers[.gatehouseDevice] ?? request.cookies[WebCookies.device]?.value,
            signUpBinding: request.headers[.gatehouseSignUp] ?? request.cookies[WebCookies.signUp]?.value
        )
        context.overHTTPS = servesTLS || forwardedHTTPS(request, peer: context.peerAddress)
        return try await next(request, context)
    }

    /// Whether a trusted proxy says it received the request over HTTPS (`X-Forwarded-Proto`).
    package func forwardedHTTPS(_ request: Request, peer: String?) -> Bool {
        guard let peer, trustedProxies.contains(peer), let proto = request.headers[.xForwardedProto] else { return false }
        return proto.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased() == "https"
    }

    package func address(_ request: Request, peer: String?) -> String {
        guard let peer else { return "unknown" }
        guard trustedProxies.contains(peer) else { return peer }
        let forwarded = request.headers[values: .xForwardedFor]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in forwarded.reversed() {
            guard IPAddress(hop) != nil else { return peer }
            if !trustedProxies.contains(hop) { return hop }
        }
        return peer
    }
}

extension HTTPField.Name {
    package static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    package static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    /// A device token from an earlier sign-in, for API clients (the web uses a cookie).
    package static let gatehouseDevice = HTTPField.Name("Gatehouse-Device")!
    /// The sign-up binding: sent with a sign-up's answer, presented when verifying by link.
    package static let gatehouseSignUp = HTTPField.Name("Gatehouse-Sign-Up")!
}
