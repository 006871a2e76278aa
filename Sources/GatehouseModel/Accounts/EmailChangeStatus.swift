/// Where an email change stands, as the REST answers and the SDK read it (issue 39).
public enum EmailChangeStatus: String, Sendable, Codable, CaseIterable {
    /// Mails went to the new address (and the current one): both must confirm.
    case pending
    /// One address confirmed; the other has not yet.
    case awaitingOther = "awaiting_other"
    /// Both confirmed: the account's email changed.
    case done
    /// The current address cancelled the change.
    case cancelled
}

/// The answer of each email-change route: its status and the new address.
public struct EmailChangeAnswer: Sendable, Codable, Equatable {
    public let status: EmailChangeStatus
    public let email: String

    public init(status: EmailChangeStatus, email: String) {
        self.status = status
        self.email = email
    }
}
