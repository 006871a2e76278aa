import Logging
import ServiceLifecycle

/// Runs deliveries (an SMS now, mail next) off the request path: bounded, a few at a time, and
/// drained on a clean shutdown.
///
/// A request that enqueues answers after the same work whether or not anything is sent, so
/// how long a gateway takes can never tell an attacker which numbers have accounts. Each job
/// does its own retries and reports its own failure (the log, later the metrics); the queue
/// only bounds how many wait (``capacity``) and how many run at once (``concurrency``).
public final class DeliveryQueue: Service, Sendable {
    public typealias Job = @Sendable () async -> Void

    package let capacity: Int
    package let concurrency: Int
    private let stream: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation
    private let logger: Logger

    public init(capacity: Int = 1000, concurrency: Int = 8, logger: Logger) {
        self.capacity = capacity
        self.concurrency = concurrency
        self.logger = logger
        (stream, continuation) = AsyncStream.makeStream(of: Job.self, bufferingPolicy: .bufferingOldest(capacity))
    }

    /// Queues a job; `false` when the queue is full (or shut down) and the job was dropped.
    @discardableResult
    public func enqueue(_ job: @escaping Job) -> Bool {
        switch continuation.yield(job) {
        case .enqueued: return true
        case .dropped, .terminated:
            logger.error("Delivery queue full; a message was dropped", metadata: ["delivery.capacity": "\(capacity)"])
            return false
        @unknown default: return false
        }
    }

    /// Runs queued jobs until a graceful shutdown, then finishes every job already queued.
    public func run() async throws {
        let continuation = continuation
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                for await job in stream {
                    if running >= concurrency {
                        await group.next()
                        running -= 1
                    }
                    group.addTask { await job() }
                    running += 1
                }
            }
        } onGracefulShutdown: {
            continuation.finish()
        }
    }
}
