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
        let kind: AuditEventType
        self.init(at: date, type: "", address: address, device: device)
        switch event {
        case .signInSucceeded(let userID, let sessionID, let method):
            (kind, self.userID, details) = (.signInSucceeded, userID, ["session_id": sessionID, "method": method.rawValue])
        case .signInRefused(let account, let method, let reason, let userID):
            (kind, self.account, self.userID) = (.signInRefused, account, userID)
            details = ["method": method.rawValue, "reason": reason.rawValue]
        case .signInThrottled(let account, let limit):
            (kind, self.account, details) = (.signInThrottled, account, ["limit": limit.rawValue])
        case .sessionEnded(let userID, let sessionID, let reason):
            kind = reason == .refreshTokenReused ? .refreshTokenReused : .sessionEnded
            self.userID = userID
            details = ["reason": reason.rawValue]
            if let sessionID { details["session_id"] = sessionID }
        case .signedUp(let userID): (kind, self.userID) = (.signedUp, userID)
        case .emailVerified(let userID): (kind, self.userID) = (.emailVerified, userID)
        case .passwordChanged(let userID, let method): (kind, self.userID, details) = (.passwordChanged, userID, ["method": method.rawValue])
        case .passkeyAdded(let userID, let id): (kind, self.userID, details) = (.passkeyAdded, userID, ["passkey_id": id])
        case .passkeyRemoved(let userID, let id): (kind, self.userID, details) = (.passkeyRemoved, userID, ["passkey_id": id])
        case .passkeyCloneWarning(let userID, let id): (kind, self.userID, details) = (.passkeyCloneWarning, userID, ["passkey_id": id])
        case .messageSent(let account, let channel, let purpose, let result):
            (kind, self.account) = (.messageSent, account)
            details = ["channel": channel.rawValue, "purpose": purpose.rawValue, "result": result.rawValue]
        case .identityLinked(let userID, let provider):
            (kind, self.userID, details) = (.identityLinked, userID, ["provider": provider.rawValue])
        case .identityUnlinked(let userID, let provider):
            (kind, self.userID, details) = (.identityUnlinked, userID, ["provider": provider.rawValue])
        case .providerNotice(let userID, let provider, let notice):
            (kind, self.userID, details) = (.providerNotice, userID, ["provider": provider.rawValue, "notice": notice.rawValue])
        case .requestThrottled(let account, let limit):
            (kind, self.account, details) = (.requestThrottled, account, ["limit": limit.rawValue])
        case .signUpOfExistingAccount(let userID): (kind, self.userID) = (.signUpOfExistingAccount, userID)
        case .passwordChangeRefused(let userID): (kind, self.userID) = (.passwordChangeRefused, userID)
        case .administered(let actor, let action, let userID): (kind, self.userID, self.actor) = (action.auditType, userID, actor.rawValue)
        case .factorEnrolled(let userID, let id): (kind, self.userID, details) = (.factorEnrolled, userID, ["factor_id": id])
        case .factorVerified(let userID, let id): (kind, self.userID, details) = (.factorVerified, userID, ["factor_id": id])
        case .factorRemoved(let userID, let id, let actor):
            (kind, self.userID, self.actor, details) = (.factorRemoved, userID, actor?.rawValue, ["factor_id": id])
        case .recoveryCodeUsed(let userID, let left): (kind, self.userID, details) = (.recoveryCodeUsed, userID, ["codes_left": "\(left)"])
        case .recoveryCodesRegenerated(let userID): (kind, self.userID) = (.recoveryCodesRegenerated, userID)
        case .stepUpRefused(let userID): (kind, self.userID) = (.stepUpRefused, userID)
        case .accountDeleted(let userID): (kind, self.userID) = (.accountDeleted, userID)
        case .emailChangeRequested(let userID): (kind, self.userID) = (.emailChangeRequested, userID)
        case .emailChanged(let userID): (kind, self.userID) = (.emailChanged, userID)
        case .emailChangeReverted(let userID): (kind, self.userID) = (.emailChangeReverted, userID)
        case .accountDeletionScheduled(let userID): (kind, self.userID) = (.accountDeletionScheduled, userID)
        case .accountDeletionCancelled(let userID): (kind, self.userID) = (.accountDeletionCancelled, userID)
        }
        type = kind.rawValue
    }
}
