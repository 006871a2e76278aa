import Foundation

/// Where outgoing messages wait (`outbox`): the row is written with the change that caused it,
/// then claimed, sent and marked.
///
/// Atomicity: ``putSecret(_:queueing:)`` writes the secret and its message in one transaction,
/// so neither exists without the other; ``claimMessages(due:leaseUntil:limit:)`` leases each
/// row to one caller (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite has one writer); every
/// other change is one conditional statement.
public protocol OutboxRepository: Sendable {
    /// Adds one message on its own (a notice whose cause is already stored).
    func queueMessage(_ message: OutboxRecord) async throws
    /// Stores a one-time secret (as ``OneTimeSecretRepository/putSecret(_:)`` does) and the
    /// message that carries it, in one transaction.
    func putSecret(_ secret: OneTimeSecret, queueing message: OutboxRecord) async throws
    /// Leases up to `limit` pending messages whose time has come and whose lease (if any) has
    /// run out, oldest first; each goes to one caller only.
    func claimMessages(due now: Date, leaseUntil: Date, limit: Int) async throws -> [OutboxRecord]
    /// Marks a pending message sent and drops its content.
    func markMessageSent(id: String, at date: Date) async throws
    /// Records a failed try: the count, the reason and when to try again; the lease ends.
    func retryMessageLater(id: String, attempts: Int, at next: Date, error: String) async throws
    /// Gives up on a pending message, keeping its sealed content for an operator's retry.
    func deadLetterMessage(id: String, attempts: Int, error: String) async throws
    /// Removes a message nobody is to get (its code was withdrawn and the person told to retry).
    func deleteMessage(id: String) async throws
    /// Puts dead messages back in line (the named one, or every one when `id` is `nil`);
    /// returns how many.
    func requeueDeadMessages(id: String?, at now: Date) async throws -> Int
    /// Ends every lease (SQLite at start: one server owns the file, so no lease is live).
    func releaseMessageLeases() async throws
    /// Messages in one state, oldest first.
    func messages(in state: OutboxState, limit: Int) async throws -> [OutboxRecord]
    /// Counts for the metrics and the CLI.
    func outboxBacklog() async throws -> OutboxBacklog
    /// Forgets sent messages older than `date`; returns how many.
    func pruneSentMessages(before date: Date) async throws -> Int
}
