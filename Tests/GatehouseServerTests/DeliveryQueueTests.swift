import Crypto
import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseModel
import GatehousePhoneNumbers
import GatehouseSQL
import Logging
import Metrics
import MetricsTestKit
import Testing

/// Issue 21, finding 3: with a silent account check a code's SMS leaves after the answer,
/// through the delivery queue; a gateway that fails is retried by its sender, then logged and
/// counted (`gatehouse_messages_total{channel="sms",result="failed"}`), never answered.
@Suite struct DeliveryQueueTests {
    /// A gateway that takes `delay` and then refuses, counting what it was given.
    final class FailingGateway: MessageSender, @unchecked Sendable {
        let delay: Duration
        let lock = NSLock()
        var attempts = 0
        init(delay: Duration) { self.delay = delay }
        func send(_ message: OutgoingMessage) async throws {
            try await Task.sleep(for: delay)
            lock.withLock { attempts += 1 }
            throw DeliveryError("gateway: HTTP 500")
        }
    }

    static func issuer(_ repository: SQLRepository, sender: any MessageSender, deliveries: DeliveryQueue?, metrics: TestMetrics) -> PhoneCodeIssuer {
        var policy = PhonePolicy()
        policy.silentAccountCheck = deliveries != nil
        var issuer = PhoneCodeIssuer(
            codes: repository, throttles: repository, numbers: LibPhoneNumber(), key: SymmetricKey(size: .bits256), references: AccountKeys(key: SymmetricKey(size: .bits256)),
            sender: sender, deliveries: deliveries, policy: policy, logger: Logger(label: "test")
        )
        issuer.dispatch.metrics = metrics
        return issuer
    }

    @Test func H21_aSilentChecksFailingGatewayIsCountedAfterTheAnswerNotInIt() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
            try await storage.repository.migrate()
            let metrics = TestMetrics()
            let gateway = FailingGateway(delay: .milliseconds(300))
            let queue = DeliveryQueue(logger: Logger(label: "test"))
            let running = Task { try await queue.run() }
            defer { running.cancel() }
            let issuer = Self.issuer(storage.repository, sender: gateway, deliveries: queue, metrics: metrics)
            let number = try #require(PhoneNumber.parse("+919876543210", region: ""))
            let started = ContinuousClock.now
            let sent = try await issuer.issue(to: number, purpose: .signIn, name: nil, deliver: true, now: Date())
            #expect(ContinuousClock.now - started < .milliseconds(300), "the answer does not wait for the gateway")
            #expect(!sent.verificationID.isEmpty)
            for _ in 0..<200 where gateway.lock.withLock({ gateway.attempts }) == 0 { try await Task.sleep(for: .milliseconds(20)) }
            for _ in 0..<100 where (try? metrics.expectCounter("gatehouse_messages_total", [("channel", "sms"), ("result", "failed")])) == nil {
                try await Task.sleep(for: .milliseconds(20))
            }
            let failed = try metrics.expectCounter("gatehouse_messages_total", [("channel", "sms"), ("result", "failed")])
            #expect(failed.totalValue == 1)
            #expect(try await storage.repository.phoneCode(id: sent.verificationID) == nil, "a code that never left is deleted")
        }
    }

    @Test func H21_withoutASilentCheckTheFailureIsTheAnswer() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
            try await storage.repository.migrate()
            let metrics = TestMetrics()
            let issuer = Self.issuer(storage.repository, sender: FailingGateway(delay: .zero), deliveries: nil, metrics: metrics)
            let number = try #require(PhoneNumber.parse("+919876543210", region: ""))
            await #expect(throws: GatehouseError.smsUnavailable(retryAfter: 30)) {
                try await issuer.issue(to: number, purpose: .signIn, name: nil, deliver: true, now: Date())
            }
            #expect(try metrics.expectCounter("gatehouse_messages_total", [("channel", "sms"), ("result", "failed")]).totalValue == 1)
        }
    }

    @Test func aFullQueueDropsAndSaysSoWithoutBlocking() async throws {
        let queue = DeliveryQueue(capacity: 2, logger: Logger(label: "test"))
        #expect(queue.enqueue {})
        #expect(queue.enqueue {})
        #expect(!queue.enqueue {}, "the third waits for no one")
    }
}
