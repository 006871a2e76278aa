import Foundation

/// Audit entries written together, as the audit webhook receives them: one outbox row, one
/// signed POST, `{"type": "audit.entries", "entries": [...]}`.
public struct AuditBatch: Sendable, Equatable, Codable {
    /// The outbox row's id, the POST's `webhook-id` on every try; `nil` until queued.
    public var id: String?
    public var entries: [AuditEntry]

    public init(id: String? = nil, entries: [AuditEntry]) {
        self.id = id
        self.entries = entries
    }
}
