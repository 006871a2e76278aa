import Foundation
import Logging
import Synchronization
import ServiceLifecycle

/// The audit log: an ``EventSink`` that writes every security event to the database, off the
/// request path, and optionally forwards it to a SIEM.
///
/// ``record(_:at:address:device:)`` appends to a buffer and returns; ``run()`` writes what has
/// gathered in one transaction each time it wakes, so entries that arrive while a write is under
/// way share the next one (a group commit): a burst of sign-ins costs a few writes, not one each.
/// A failed write keeps its entries for the next one. A graceful shutdown writes what is left
/// after the server has stopped taking requests (the application stops its services in
/// reverse, and the log is listed after storage), so a clean stop loses nothing.
public final class AuditLog: EventSink, Service, Sendable {
    package let repository: any AuditRepository
    /// How long entries are kept; `nil` keeps them for ever.
    package let retention: TimeInterval?
    package let exporter: (any AuditExporter)?
    package let deliveries: DeliveryQueue?
    package let clock: @Sendable () -> Date
    package let logger: Logger
    /// Past this many unwritten entries (the database is down), the oldest are dropped and counted.
    package let capacity: Int
    private let buffer = Mutex<[AuditEntry]>([])
    private let dropped = Mutex(0)
    private let wake: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation

    /// - Parameters:
    ///   - retention: entries older than this are deleted in the background (hourly).
    ///   - exporter: where each written batch is forwarded (a webhook), through `deliveries`.
    public init(
        repository: any AuditRepository, retention: TimeInterval? = nil, exporter: (any AuditExporter)? = nil,
        deliveries: DeliveryQueue? = nil, capacity: Int = 100_000, clock: @escaping @Sendable () -> Date = { Date() }, logger: Logger
    ) {
        self.repository = repository
        self.retention = retention
        self.exporter = exporter
        self.deliveries = deliveries
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

    /// Entries recorded but not yet written.
    package var pending: Int { buffer.withLock { $0.count } }

    /// Writes everything buffered now, in one transaction; on failure the entries stay buffered
    /// (ahead of newer ones) and the error is thrown.
    public func flush() async throws {
        let batch = buffer.withLock { entries in
            defer { entries.removeAll(keepingCapacity: true) }
            return entries
        }
        guard !batch.isEmpty else { return }
        do {
            try await repository.appendAuditEntries(batch)
        } catch {
            buffer.withLock { entries in
                entries.insert(contentsOf: batch, at: 0)
                if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
            }
            throw error
        }
        if let exporter { forward(batch, to: exporter) }
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
                for await _ in wake { await write() }
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

    private func forward(_ batch: [AuditEntry], to exporter: any AuditExporter) {
        let logger = logger
        let job: DeliveryQueue.Job = {
            do {
                try await exporter.export(batch)
            } catch {
                logger.error("Audit entries not forwarded", metadata: ["audit.entries": "\(batch.count)", "error": "\(error)"])
            }
        }
        if let deliveries { deliveries.enqueue(job) } else { Task { await job() } }
    }
}
