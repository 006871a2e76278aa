import Foundation

/// Where sign-in flows with an external provider wait between the redirect and the callback.
///
/// Every instance shares them, so a callback may land on any instance. Each step is one
/// statement that succeeds once: a state is consumed once, a return code exchanged once.
public protocol OIDCFlowRepository: Sendable {
    func insertFlow(_ flow: OIDCFlowRecord) async throws
    /// Marks the flow used and returns it, if it exists, is unused and unexpired at `now`.
    func consumeFlow(id: String, now: Date) async throws -> OIDCFlowRecord?
    /// Records the account a flow proved and the hash of the one-time code that returns it to the app.
    func completeFlow(id: String, userID: String, isNewUser: Bool, codeHash: String, expiresAt: Date) async throws
    /// Marks a completed flow's return code used and returns the flow, if it is unused and unexpired.
    func exchangeFlowCode(hash: String, now: Date) async throws -> OIDCFlowRecord?
    /// Removes flows that expired before `before`; returns how many.
    func purgeFlows(before: Date) async throws -> Int
}

/// What a flow is for, which decides where its callback goes.
public enum OIDCFlowPurpose: String, Sendable, Equatable {
    /// The login page: the callback opens a web session.
    case web
    /// An app (GoTrue's authorize, the CLI): the callback returns a one-time code to `returnTo`.
    case app
    /// A signed-in user adds the provider to their account (Home).
    case link
}

/// One flow: who started it, where it returns, and what it proved.
public struct OIDCFlowRecord: Sendable, Equatable {
    /// The hash of the flow's `state`.
    public var id: String
    public var provider: IdentityProvider
    public var purpose: OIDCFlowPurpose
    /// The hash of the browser cookie the flow is bound to.
    public var bindingHash: String
    /// Where the flow returns: an allowed redirect target (app) or a local path (web).
    public var returnTo: String?
    /// The app's own `state`, echoed back on return.
    public var clientState: String?
    /// The app's PKCE S256 challenge, checked when its return code is exchanged.
    public var codeChallenge: String?
    /// The signed-in user (link), or the account the flow proved (app, once completed).
    public var userID: String?
    public var isNewUser: Bool
    public var createdAt: Date
    public var expiresAt: Date
    public var consumedAt: Date?

    public init(
        id: String, provider: IdentityProvider, purpose: OIDCFlowPurpose, bindingHash: String, returnTo: String? = nil,
        clientState: String? = nil, codeChallenge: String? = nil, userID: String? = nil, isNewUser: Bool = false,
        createdAt: Date, expiresAt: Date, consumedAt: Date? = nil
    ) {
        self.id = id
        self.provider = provider
        self.purpose = purpose
        self.bindingHash = bindingHash
        self.returnTo = returnTo
        self.clientState = clientState
        self.codeChallenge = codeChallenge
        self.userID = userID
        self.isNewUser = isNewUser
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.consumedAt = consumedAt
    }
}
