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
/// through the delivery queue; a gateway that fails is logged and counted
/// (`gatehouse_messages_total{channel="sms",result="failed"}`), never answered, and (issue 40)
/// its outbox row waits for a retry.
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

    static func issuer(
        _ repository: SQLRepository, sender: any MessageSender, deliveries: DeliveryQueue?, silent: Bool, metrics: TestMetrics
    ) -> PhoneCodeIssuer {
        var policy = PhonePolicy()
        policy.silentAccountCheck = silent
        let outbox = MessageOutbox(
            repository: repository, kek: SymmetricKey(size: .bits256), deliveries: deliveries, logger: Logger(label: "test"), metrics: metrics
        )
        var issuer = PhoneCodeIssuer(
            codes: repository, throttles: repository, numbers: LibPhoneNumber(), key: SymmetricKey(size: .bits256), references: AccountKeys(key: SymmetricKey(size: .bits256)),
            sender: sender, outbox: outbox, policy: policy, logger: Logger(label: "test")
        )
        issuer.dispatch.metrics = metrics
        return issuer
    }

    /// Issue 40: the failed SMS is not lost either: its outbox row waits for a retry, with the
    /// try counted and the reason kept, and its code still works.
    @Test func H21_aSilentChecksFailingGatewayIsCountedAfterTheAnswerAndKeptForARetry() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
            try await storage.repository.migrate()
            let metrics = TestMetrics()
            let gateway = FailingGateway(delay: .milliseconds(300))
            let queue = DeliveryQueue(logger: Logger(label: "test"))
            let running = Task { try await queue.run() }
            defer { running.cancel() }
            let issuer = Self.issuer(storage.repository, sender: gateway, deliveries: queue, silent: true, metrics: metrics)
            let number = try #require(PhoneNumber.parse("+919876543210", region: ""))
            let started = ContinuousClock.now
            let sent = try await issuer.issue(to: number, purpose: .signIn, name: nil, deliver: true, now: Date())
            #expect(ContinuousClock.now - started < .milliseconds(300), "the answer does not wait for the gateway")
            #expect(!sent.verificationID.isEmpty)
            for _ in 0..<200 where (try? metrics.expectCounter("gatehouse_outbox_sends_total", [("channel", "sms"), ("result", "retry")])) == nil {
                try await Task.sleep(for: .milliseconds(20))
            }
            let failed = try metrics.expectCounter("gatehouse_messages_total", [("channel", "sms"), ("result", "failed")])
            #expect(failed.totalValue == 1)
            #expect(gateway.lock.withLock { gateway.attempts } == 1)
            let waiting = try await storage.repository.messages(in: .pending, limit: 10)
            #expect(waiting.count == 1)
            #expect(waiting.first?.attempts == 1)
            #expect(waiting.first?.lastError == "gateway: HTTP 500")
            #expect(waiting.first?.leaseUntil == nil, "its lease ends, so any instance may retry it")
            #expect(try await storage.repository.phoneCode(id: sent.verificationID) != nil, "the code stays for the retried SMS")
        }
    }

    @Test func H21_withoutASilentCheckTheFailureIsTheAnswerAndNothingIsLeftToSend() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await Storage.with(try DatabaseLocation(fixture.databasePath), logger: Logger(label: "test")) { storage in
            try await storage.repository.migrate()
            let metrics = TestMetrics()
            let issuer = Self.issuer(storage.repository, sender: FailingGateway(delay: .zero), deliveries: nil, silent: false, metrics: metrics)
            let number = try #require(PhoneNumber.parse("+919876543210", region: ""))
            await #expect(throws: GatehouseError.smsUnavailable(retryAfter: 30)) {
                try await issuer.issue(to: number, purpose: .signIn, name: nil, deliver: true, now: Date())
            }
            #expect(try metrics.expectCounter("gatehouse_messages_total", [("channel", "sms"), ("result", "failed")]).totalValue == 1)
            #expect(try await storage.repository.phoneCode(phone: "+919876543210") == nil, "the code is withdrawn")
            #expect(try await storage.repository.outboxBacklog() == OutboxBacklog(pending: 0, dead: 0, oldestPendingAt: nil), "and its SMS")
        }
    }

    @Test func aFullQueueRefusesWithoutBlockingAndABurstOfRefusalsIsOneWarning() async throws {
        let sink = LogSink()
        let queue = DeliveryQueue(capacity: 2, refusalReportInterval: .milliseconds(200), logger: Logger(label: "test") { _ in sink })
        #expect(queue.enqueue {})
        #expect(queue.enqueue {})
        #expect(!queue.enqueue {}, "the third waits for no one")
        for _ in 0..<50 { #expect(!queue.enqueue {}) }
        let warnings = sink.text.split(separator: "\n").filter { $0.contains("Delivery queue full") }
        #expect(warnings.count == 1, "the first refusal is reported, the burst behind it waits for the next report: \(warnings)")
        #expect(warnings.first?.hasPrefix("warning ") == true, "a refusal loses no outbox message: \(warnings)")
        #expect(warnings.first?.contains("\"delivery.refused\": 1") == true, "\(warnings)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(!queue.enqueue {})
        let later = sink.text.split(separator: "\n").filter { $0.contains("Delivery queue full") }
        #expect(later.count == 2, "\(later)")
        #expect(later.last?.contains("\"delivery.refused\": 51") == true, "the burst is counted in the next report: \(later)")
    }
}
