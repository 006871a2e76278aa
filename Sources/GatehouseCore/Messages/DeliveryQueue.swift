import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Runs work after the answer, off the request path: bounded, a few at a time, and drained on a
/// clean shutdown.
///
/// The outbox's first try of each stored message runs here (``MessageOutbox/deliverSoon(_:)``).
/// A request that enqueues answers after the same work whether or not anything is sent, so
/// how long a gateway takes can never tell an attacker which numbers have accounts. The queue
/// only bounds how many wait (``capacity``) and how many run at once (``concurrency``).
///
/// A graceful shutdown stops taking jobs and runs those already queued, for at most
/// ``drainTimeout``; jobs that have not started by then are dropped and counted in the log.
/// Nothing is lost that way: a dropped first try's message stays in the outbox, and the next
/// worker to start sends it once its lease runs out.
///
/// A full queue refuses a job at once (the request never waits for it). In a burst that
/// outruns the senders it refuses many: the first refusal is logged as a warning, and the rest
/// are counted into one warning at most every ``refusalReportInterval``, so an overload neither
/// floods the log nor reads as lost mail (an outbox message's first try then waits for the
/// outbox worker; a notice composed after the answer is not sent).
public final class DeliveryQueue: Service, Sendable {
    public typealias Job = @Sendable () async -> Void

    package let capacity: Int
    package let concurrency: Int
    /// How long a graceful shutdown waits for queued jobs to start.
    package let drainTimeout: Duration
    /// The least time between two warnings about refused jobs.
    package let refusalReportInterval: Duration
    private let abandoned = NIOLockedValueBox(false)
    /// Refusals not yet reported, and when the last warning was logged.
    private let refusals = NIOLockedValueBox<(unreported: Int, reportedAt: ContinuousClock.Instant?)>((0, nil))
    private let stream: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let logger: Logger

    public init(
        capacity: Int = 1000, concurrency: Int = 8, drainTimeout: Duration = .seconds(10), refusalReportInterval: Duration = .seconds(10),
        logger: Logger
    ) {
        self.capacity = capacity
        self.refusalReportInterval = refusalReportInterval
        self.concurrency = concurrency
        self.drainTimeout = drainTimeout
        self.logger = logger
        (stream, continuation) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .bufferingOldest(capacity))
    }

    /// Queues a job; `false` when the queue is full (or shut down) and the job was dropped.
    @discardableResult
    public func enqueue(_ job: @escaping Job) -> Bool {
        switch continuation.yield(job) {
        case .enqueued: return true
        case .dropped:
            reportRefusal()
            return false
        case .terminated:
            logger.notice("Delivery queue stopped: work after an answer was refused (an outbox message waits for the outbox worker)")
            return false
        @unknown default: return false
        }
    }

    /// Counts a refused job, and logs the refusals so far when none was logged for
    /// ``refusalReportInterval``.
    private func reportRefusal() {
        let now = ContinuousClock.now
        let due = refusals.withLockedValue { state -> Int? in
            state.unreported += 1
            if let last = state.reportedAt, now - last < refusalReportInterval { return nil }
            defer { state = (0, now) }
            return state.unreported
        }
        guard let due else { return }
        logger.warning(
            "Delivery queue full: work after an answer was refused (an outbox message's first try waits for the outbox worker)",
            metadata: ["delivery.capacity": "\(capacity)", "delivery.refused": "\(due)"]
        )
    }

    /// Runs queued jobs until a graceful shutdown, then the jobs already queued, for at most
    /// ``drainTimeout``.
    public func run() async throws {
        let continuation = continuation
        let abandoned = abandoned
        let drainTimeout = drainTimeout
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                var dropped = 0
                for await job in stream {
                    if running >= concurrency {
                        await group.next()
                        running -= 1
                    }
                    // Checked once a slot is free: past the drain timeout, nothing new starts.
                    if abandoned.withLockedValue({ $0 }) {
                        dropped += 1
                        continue
                    }
                    group.addTask { await job() }
                    running += 1
                }
                if dropped > 0 {
                    logger.warning(
                        "Shutdown: queued work had not started by the drain timeout (outbox messages stay for the next outbox worker)",
                        metadata: ["delivery.dropped": "\(dropped)"]
                    )
                }
            }
        } onGracefulShutdown: {
            continuation.finish()
            Task {
                try? await Task.sleep(for: drainTimeout)
                abandoned.withLockedValue { $0 = true }
            }
        }
    }
}
