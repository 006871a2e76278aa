import Foundation

/// The answer to `DELETE /api/me` where the app keeps deleted accounts for a grace period
/// (`accounts.deletionGraceDays`, issue 39): when the account goes unless its owner signs in.
public struct ScheduledDeletion: Sendable, Codable, Equatable {
    public let status: String
    /// ISO 8601, UTC.
    public let deletionDueAt: String

    public init(dueAt: Date) {
        status = "scheduled"
        deletionDueAt = dueAt.formatted(.iso8601)
    }

    /// When the account goes.
    public var dueAt: Date? { try? Date(deletionDueAt, strategy: .iso8601) }

    enum CodingKeys: String, CodingKey {
        case status
        case deletionDueAt = "deletion_due_at"
    }
}
