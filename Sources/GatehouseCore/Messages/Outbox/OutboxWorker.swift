import Foundation
import Logging
import Metrics
import ServiceLifecycle

/// Each instance's sender of what the outbox holds past its first try: retries whose time has
/// come, and the messages of an instance that died (once their lease runs out).
///
/// It claims a few due rows at a time under a lease, sends them, and settles each; every
/// ``OutboxPolicy/pollInterval``. Hourly it forgets sent rows past their retention, and on
/// every pass it sets `gatehouse_outbox_pending`, `gatehouse_outbox_dead` and
/// `gatehouse_outbox_oldest_age_seconds`. A graceful shutdown lets the pass in hand finish.
public struct OutboxWorker: Service {
    package let outbox: MessageOutbox
    /// Ends every lease before the first pass: right for SQLite, whose file one server owns, so
    /// a lease in it can only be a killed process's.
    package let releasesLeasesAtStart: Bool
    /// Rows claimed per pass, and sent at once.
    package var batch = 8

    public init(outbox: MessageOutbox, releasesLeasesAtStart: Bool) {
        self.outbox = outbox
        self.releasesLeasesAtStart = releasesLeasesAtStart
    }

    public func run() async throws {
        if releasesLeasesAtStart {
            do { try await outbox.repository.releaseMessageLeases() } catch {
                outbox.logger.error("Outbox leases not released", metadata: ["error": "\(error)"])
            }
        }
        var lastPrune = Date.distantPast
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            await pass()
            let now = outbox.clock()
            if now.timeIntervalSince(lastPrune) >= 3600 {
                lastPrune = now
                await prune(now: now)
            }
            await report(now: now)
            // The pause ends at once on shutdown; a pass in hand is never cut short.
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(Int64(outbox.policy.pollInterval * 1000))) }
        }
    }

    /// Claims the due rows and sends them, a batch at a time, until none is due.
    package func pass() async {
        while true {
            let now = outbox.clock()
            let claimed: [OutboxRecord]
            do {
                claimed = try await outbox.repository.claimMessages(due: now, leaseUntil: now.addingTimeInterval(outbox.policy.lease), limit: batch)
            } catch {
                outbox.logger.error("Outbox not read", metadata: ["error": "\(error)"])
                return
            }
            await withTaskGroup(of: Void.self) { group in
                for record in claimed { group.addTask { await outbox.deliver(record) } }
            }
            if claimed.count < batch { return }
        }
    }

    private func prune(now: Date) async {
        do {
            let removed = try await outbox.repository.pruneSentMessages(before: now.addingTimeInterval(-outbox.policy.sentRetention))
            if removed > 0 { outbox.logger.info("Sent messages past their retention forgotten", metadata: ["outbox.removed": "\(removed)"]) }
        } catch {
            outbox.logger.error("Sent messages not pruned", metadata: ["error": "\(error)"])
        }
    }

    private func report(now: Date) async {
        guard let backlog = try? await outbox.repository.outboxBacklog() else { return }
        Gauge(label: "gatehouse_outbox_pending", factory: outbox.metrics).record(backlog.pending)
        Gauge(label: "gatehouse_outbox_dead", factory: outbox.metrics).record(backlog.dead)
        let age = backlog.oldestPendingAt.map { max(0, now.timeIntervalSince($0)) } ?? 0
        Gauge(label: "gatehouse_outbox_oldest_age_seconds", factory: outbox.metrics).record(age)
    }
}
