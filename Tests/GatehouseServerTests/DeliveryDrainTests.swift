import Foundation
import GatehouseCore
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import Testing

/// Issue 22: a mail server that answers slowly cannot hold a shutdown up. The queue runs what it
/// has for at most its drain timeout, then drops what has not started and says so.
@Suite struct DeliveryDrainTests {
    @Test func I22_aGracefulShutdownDrainsTheQueueForAtMostItsTimeout() async throws {
        let queue = DeliveryQueue(capacity: 10, concurrency: 1, drainTimeout: .milliseconds(300), logger: Logger(label: "test"))
        let finished = NIOLockedValueBox(0)
        for _ in 0..<5 {
            queue.enqueue {
                try? await Task.sleep(for: .seconds(1))
                finished.withLockedValue { $0 += 1 }
            }
        }
        let services = ServiceGroup(services: [queue], gracefulShutdownSignals: [], cancellationSignals: [], logger: Logger(label: "test"))
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            try await Task.sleep(for: .milliseconds(100))
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        // The running job finishes (1 s); the four behind it would take 4 s more, and are dropped.
        #expect(finished.withLockedValue { $0 } == 1)
        #expect(elapsed < .seconds(3), "\(elapsed)")
    }
}
