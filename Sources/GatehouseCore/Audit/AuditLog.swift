import Foundation
import Logging
import Synchronization
import ServiceLifecycle

/// The audit log: an ``EventSink`` that writes every security event to the database, off the
/// request path, and optionally forwards it to a SIEM.
///
/// Forwarding goes through the outbox (``forward(through:)``): each written batch and its
/// outbox row are one transaction, so a batch is never written and then lost to a crash
/// before it leaves, and a SIEM that is down gets it on a retry, under the same `webhook-id`.
///
/// ``record(_:at:address:device:)`` appends to a buffer and returns; ``run()`` writes what has
/// gathered in one transaction each time it wakes, then rests for ``pause``, so entries that
/// arrive while a write is under way or the log rests share the next one (a group commit): a
/// lone entry is written at once, and a burst of sign-ins costs a write every ``pause``, not
/// one each.
/// A failed write keeps its entries for the next one. A graceful shutdown writes what is left
/// after the server has stopped taking requests (the application stops its services in
/// reverse, and the log is listed after storage), so a clean stop loses nothing.
public final class AuditLog: EventSink, Service, Sendable {
    package let repository: any AuditRepository
    /// How long entries are kept; `nil` keeps them for ever.
    package let retention: TimeInterval?
    package let clock: @Sendable () -> Date
    package let logger: Logger
    /// Past this many unwritten entries (the database is down), the oldest are dropped and counted.
    package let capacity: Int
    /// The rest after each write, during which new entries gather for the next.
    package let pause: Duration
    private let buffer = Mutex<[AuditEntry]>([])
    /// Where written batches are forwarded, once the outbox that carries them is composed.
    private let exports = Mutex<MessageOutbox?>(nil)
    private let dropped = Mutex(0)
    private let wake: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation

    /// - Parameter retention: entries older than this are deleted in the background (hourly).
    public init(
        repository: any AuditRepository, retention: TimeInterval? = nil, capacity: Int = 100_000, pause: Duration = .milliseconds(50),
        clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.pause = pause
        self.repository = repository
        self.retention = retention
        self.capacity = capacity
        self.clock = clock
        self.logger = logger
        (wake, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    public func record(_ event: SecurityEvent, at date: Date, address: String?, device: String?) {
        append(AuditEntry(event, at: date, address: address, device: device))
    }

    /// Buffers one entry and wakes the writer.
    package func append(_ entry: AuditEntry) {
        let overflow = buffer.withLock { entries -> Int in
            entries.append(entry)
            let excess = entries.count - capacity
            if excess > 0 { entries.removeFirst(excess) }
            return max(0, excess)
        }
        if overflow > 0 { dropped.withLock { $0 += overflow } }
        wakeContinuation.yield()
    }

    /// Forwards every batch written from now on through `outbox`'s audit channel, which the
    /// composition registers with the webhook's sender.
    package func forward(through outbox: MessageOutbox) {
        exports.withLock { $0 = outbox }
    }

    /// Entries recorded but not yet written.
    package var pending: Int { buffer.withLock { $0.count } }

    /// Writes everything buffered now, in one transaction with the outbox row that forwards it;
    /// on failure the entries stay buffered (ahead of newer ones) and the error is thrown.
    public func flush() async throws {
        let batch = buffer.withLock { entries in
            defer { entries.removeAll(keepingCapacity: true) }
            return entries
        }
        guard !batch.isEmpty else { return }
        let outbox = exports.withLock { $0 }
        var export: OutboxRecord?
        do {
            export = try outbox?.record(
                .audit(AuditBatch(entries: batch)), purpose: .auditExport, address: nil, expiresAt: nil, budgetSpent: true, now: clock()
            )
            try await repository.appendAuditEntries(batch, queueing: export)
        } catch {
            buffer.withLock { entries in
                entries.insert(contentsOf: batch, at: 0)
                if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
            }
            throw error
        }
        if let outbox, let export { outbox.deliverSoon(export) }
    }

    /// Deletes the entries older than the retention; returns how many.
    @discardableResult
    public func prune() async throws -> Int {
        guard let retention else { return 0 }
        let removed = try await repository.pruneAuditEntries(before: clock().addingTimeInterval(-retention))
        if removed > 0 { logger.info("Audit log pruned", metadata: ["audit.removed": "\(removed)"]) }
        return removed
    }

    /// Writes as entries arrive until a graceful shutdown, then what is left; prunes hourly.
    public func run() async throws {
        let wakeContinuation = wakeContinuation
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                if retention != nil {
                    group.addTask { [self] in
                        while !Task.isCancelled {
                            do { try await prune() } catch { logger.error("Audit log not pruned", metadata: ["error": "\(error)"]) }
                            try? await Task.sleep(for: .seconds(3600))
                        }
                    }
                }
                for await _ in wake {
                    await write()
                    try? await Task.sleep(for: pause)
                }
                group.cancelAll()
            }
            await write()
            let lost = dropped.withLock { $0 }
            if pending > 0 || lost > 0 {
                logger.error("Audit entries were not written", metadata: ["audit.unwritten": "\(pending)", "audit.dropped": "\(lost)"])
            }
        } onGracefulShutdown: {
            wakeContinuation.finish()
        }
    }

    /// One flush; a failure is logged and retried after a pause (the entries stay buffered).
    private func write() async {
        do {
            try await flush()
        } catch {
            logger.error("Audit entries not written; will retry", metadata: ["audit.pending": "\(pending)", "error": "\(error)"])
            try? await Task.sleep(for: .seconds(1))
            if pending > 0 { wakeContinuation.yield() }
        }
    }
}
