import Foundation

/// Which audit entries to read: all filters are optional and combine with AND.
public struct AuditQuery: Sendable, Equatable {
    /// One account's entries: those naming its id, or any of these keyed references (its
    /// email's and phone's, so refused sign-ins that named it are included).
    public var userID: String?
    public var accounts: [String] = []
    public var since: Date?
    /// Entry types, exactly (`sign_in.refused`) or by prefix ending in a dot (`admin.`).
    public var types: [String]
    /// At most this many, newest first.
    public var limit: Int

    public init(userID: String? = nil, accounts: [String] = [], since: Date? = nil, types: [String] = [], limit: Int = 1000) {
        self.userID = userID
        self.accounts = accounts
        self.since = since
        self.types = types
        self.limit = limit
    }
}

/// Where the audit log is kept.
public protocol AuditRepository: Sendable {
    /// Stores the entries in one transaction: all of them or none, and with them `export`, the
    /// outbox row that forwards them to the audit webhook.
    func appendAuditEntries(_ entries: [AuditEntry], queueing export: OutboxRecord?) async throws
    /// The entries that match, newest first, each with its sequence number.
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry]
    /// Deletes the entries older than `date` in one statement; returns how many.
    func pruneAuditEntries(before date: Date) async throws -> Int
}

extension AuditRepository {
    /// Stores the entries in one transaction, forwarding them nowhere.
    public func appendAuditEntries(_ entries: [AuditEntry]) async throws {
        try await appendAuditEntries(entries, queueing: nil)
    }
}
