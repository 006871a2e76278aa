import Foundation

/// One line of the audit log: what happened, when, to whom, from where.
///
/// Never a password, token or code. An account that is not known (a refused sign-in with an
/// unknown email) is named only by its keyed reference, which cannot be turned back into the email.
public struct AuditEntry: Sendable, Equatable, Codable {
    /// The storage's sequence number; `nil` until stored.
    public var id: Int64?
    public var at: Date
    /// A dotted name: `sign_in.succeeded`, `session.ended`, `admin.ban`, … (see ``AuditEntry/init(_:at:address:device:)``).
    public var type: String
    public var userID: String?
    /// The keyed account reference, when the event names an account that may not exist.
    public var account: String?
    public var address: String?
    /// The device label ("iPhone · Safari").
    public var device: String?
    /// Who did it, for admin actions (`cli:alice`, `service_role`).
    public var actor: String?
    /// The event's other facts: `method`, `reason`, `session_id`, `provider`, … (never a secret).
    public var details: [String: String]

    public init(
        id: Int64? = nil, at: Date, type: String, userID: String? = nil, account: String? = nil, address: String? = nil,
        device: String? = nil, actor: String? = nil, details: [String: String] = [:]
    ) {
        self.id = id
        self.at = at
        self.type = type
        self.userID = userID
        self.account = account
        self.address = address
        self.device = device
        self.actor = actor
        self.details = details
    }

    enum CodingKeys: String, CodingKey {
        case id, at, type, account, address, device, actor, details
        case userID = "user_id"
    }
}

extension AuditEntry {
    /// The entry a security event becomes.
    public init(_ event: SecurityEvent, at date: Date, address: String?, device: String?) {
        self.init(at: date, type: "", address: address, device: device)
        switch event {
        case .signInSucceeded(let userID, let sessionID, let method):
            (type, self.userID, details) = ("sign_in.succeeded", userID, ["session_id": sessionID, "method": method])
        case .signInRefused(let account, let method, let reason, let userID):
            (type, self.account, self.userID, details) = ("sign_in.refused", account, userID, ["method": method, "reason": reason.rawValue])
        case .signInThrottled(let account, let limit):
            (type, self.account, details) = ("sign_in.throttled", account, ["limit": limit])
        case .sessionEnded(let userID, let sessionID, let reason):
            type = reason == .refreshTokenReused ? "session.refresh_token_reused" : "session.ended"
            self.userID = userID
            details = ["reason": reason.rawValue]
            if let sessionID { details["session_id"] = sessionID }
        case .signedUp(let userID): (type, self.userID) = ("account.signed_up", userID)
        case .emailVerified(let userID): (type, self.userID) = ("account.email_verified", userID)
        case .passwordChanged(let userID, let method): (type, self.userID, details) = ("password.changed", userID, ["method": method])
        case .passkeyAdded(let userID, let id): (type, self.userID, details) = ("passkey.added", userID, ["passkey_id": id])
        case .passkeyRemoved(let userID, let id): (type, self.userID, details) = ("passkey.removed", userID, ["passkey_id": id])
        case .passkeyCloneWarning(let userID, let id): (type, self.userID, details) = ("passkey.clone_warning", userID, ["passkey_id": id])
        case .messageSent(let account, let channel, let purpose, let result):
            (type, self.account, details) = ("message.sent", account, ["channel": channel, "purpose": purpose, "result": result])
        case .identityLinked(let userID, let provider): (type, self.userID, details) = ("identity.linked", userID, ["provider": provider])
        case .identityUnlinked(let userID, let provider): (type, self.userID, details) = ("identity.unlinked", userID, ["provider": provider])
        case .administered(let actor, let action, let userID): (type, self.userID, self.actor) = ("admin.\(action)", userID, actor)
        }
    }
}
