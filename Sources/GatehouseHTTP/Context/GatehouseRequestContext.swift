import GatehouseCore
import Hummingbird
import HummingbirdAuth
import NIOCore

/// The request context of Gatehouse's routes: who is calling (the client's address and
/// device token, resolved by ``ClientMiddleware``) and who they are (the ``Principal`` an
/// authenticator found), with bodies capped at 16 KiB.
public struct GatehouseRequestContext: AuthRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in user and session, set by an authenticator middleware.
    public var identity: Principal?
    /// Why an authenticator refused the presented credentials, if it did.
    package var authenticationFailure: GatehouseError?
    /// The address of the direct peer; `nil` where there is no socket (router tests).
    package let peerAddress: String?
    /// The client as the limits see it; set by ``ClientMiddleware``.
    package var client: ClientInfo
    /// Whether the client reached Gatehouse over HTTPS (directly, or through a trusted proxy).
    package var overHTTPS = false

    public init(source: Source) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        client = ClientInfo(address: peerAddress ?? "unknown")
    }

    /// Login and refresh bodies are a few hundred bytes; anything over 16 KiB is refused.
    public var maxUploadSize: Int { 16 * 1024 }

    /// The authenticated principal, or the authenticator's reason, or ``GatehouseError/unauthenticated``.
    package func requirePrincipal() throws -> Principal {
        if let identity { return identity }
        throw authenticationFailure ?? .unauthenticated
    }
}
