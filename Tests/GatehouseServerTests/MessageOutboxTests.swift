import Crypto
import Foundation
import GatehouseCore
import GatehouseSQL
import Logging
import NIOConcurrencyHelpers
import Testing

/// Issue 40: what the outbox does with each try's outcome. A transient failure is tried again
/// later under the same id (the `Message-ID`); a permanent one, the last try and an expired
/// code are dead-lettered (logged, counted, audited) and come back only on an operator's word; a
/// message a killed instance held is sent by another once its lease runs out, once.
@Suite struct MessageOutboxTests {
    /// A provider that answers from a script (then accepts), keeping the ids it was given.
    final class ScriptedSender: MessageSender {
        let script: NIOLockedValueBox<[DeliveryError?]>
        let ids = NIOLockedValueBox<[String]>([])
        init(_ script: [DeliveryError?]) { self.script = NIOLockedValueBox(script) }
        func send(_ message: OutgoingMessage) async throws {
            guard case .email(let mail) = message else { return }
            ids.withLockedValue { $0.append(mail.id ?? "none") }
            if let failure = script.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
        }
        var tries: Int { ids.withLockedValue { $0.count } }
    }

    final class Clock: Sendable {
        let current = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { current.withLockedValue { $0 } }
        func advance(_ seconds: TimeInterval) { current.withLockedValue { $0 += seconds } }
    }

    struct Harness {
        let repository: SQLRepository
        let outbox: MessageOutbox
        let worker: OutboxWorker
        let sender: ScriptedSender
        let clock: Clock
        let events: SecurityEventTests.Recorder

        func mail(expiresIn: TimeInterval? = nil) async throws -> OutboxRecord {
            let message = EmailMessage(
                action: .recovery, to: "ann@example.com", link: "http://localhost/reset?token=t", code: "123456", token: "t", appName: "App",
                subject: "Reset", body: "Body", actionLabel: "Reset", codeLine: nil, footer: "Footer", siteURL: "http://localhost"
            )
            let record = try outbox.record(
                .email(message), purpose: .recovery, address: "192.0.2.1", expiresAt: expiresIn.map { clock.now.addingTimeInterval($0) },
                now: clock.now
            )
            try await repository.queueMessage(record)
            return record
        }

        func only(_ state: OutboxState) async throws -> OutboxRecord? {
            try await repository.messages(in: state, limit: 10).first
        }
    }

    static func with(_ script: [DeliveryError?], attempts: Int = 8, _ body: (Harness) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let logger = Logger(label: "outbox-test")
        try await Storage.with(.sqlite(path: path), logger: logger) { storage in
            try await storage.repository.migrate()
            let clock = Clock()
            var policy = OutboxPolicy()
            policy.maximumAttempts = attempts
            let outbox = MessageOutbox(
                repository: storage.repository, kek: SymmetricKey(size: .bits256), policy: policy, deliveries: nil, clock: { clock.now },
                logger: logger
            )
            let sender = ScriptedSender(script)
            var dispatch = MessageDispatch(
                channel: .email, throttles: storage.repository, budget: .mailBudget, perHour: 100, overBudgetResult: .dropped, sender: sender,
                references: AccountKeys(key: SymmetricKey(size: .bits256)), logger: logger
            )
            let events = SecurityEventTests.Recorder()
            dispatch.events = events
            outbox.register(dispatch)
            try await body(Harness(
                repository: storage.repository, outbox: outbox, worker: OutboxWorker(outbox: outbox, releasesLeasesAtStart: true),
                sender: sender, clock: clock, events: events
            ))
        }
    }

    @Test func aTransientFailureIsTriedAgainLaterUnderTheSameIdThenSentOnce() async throws {
        try await Self.with([DeliveryError("smtp: 451 try later")]) { harness in
            let record = try await harness.mail()
            #expect(await harness.outbox.deliver(record) == .failed(reason: "smtp: 451 try later", permanent: false))
            let waiting = try #require(try await harness.only(.pending))
            #expect(waiting.attempts == 1 && waiting.lastError == "smtp: 451 try later" && waiting.leaseUntil == nil)
            let pause = waiting.nextAttemptAt.timeIntervalSince(harness.clock.now)
            #expect(pause >= 5 && pause <= 10, "half to all of the 10 s base")
            await harness.worker.pass()
            #expect(harness.sender.tries == 1, "not before its time")
            harness.clock.advance(pause)
            await harness.worker.pass()
            #expect(harness.sender.ids.withLockedValue { $0 } == [record.id, record.id], "one id on every try")
            let sent = try #require(try await harness.only(.sent))
            #expect(sent.sealedPayload == nil, "its content is gone once sent")
            await harness.worker.pass()
            #expect(harness.sender.tries == 2)
        }
    }

    @Test func aPermanentRefusalIsDeadLetteredAtOnceAuditedAndSentAgainOnlyWhenRequeued() async throws {
        try await Self.with([DeliveryError("smtp: 550 no such user", permanent: true)]) { harness in
            let record = try await harness.mail()
            await harness.outbox.deliver(record)
            let dead = try #require(try await harness.only(.dead))
            #expect(dead.lastError == "smtp: 550 no such user" && dead.attempts == 1)
            let results = harness.events.all.compactMap { entry -> MessageResult? in
                if case .messageSent(_, .email, .recovery, let result) = entry.event { result } else { nil }
            }
            #expect(results == [.failed, .deadLettered])
            harness.clock.advance(3600)
            await harness.worker.pass()
            #expect(harness.sender.tries == 1, "a dead message waits for an operator")
            #expect(try await harness.repository.requeueDeadMessages(id: nil, at: harness.clock.now) == 1)
            await harness.worker.pass()
            #expect(harness.sender.tries == 2)
            #expect(try await harness.only(.sent)?.id == record.id)
        }
    }

    @Test func theLastTryDeadLettersAndAnExpiredCodeIsNeverSent() async throws {
        try await Self.with([DeliveryError("smtp: 451"), DeliveryError("smtp: 451")], attempts: 2) { harness in
            let record = try await harness.mail()
            await harness.outbox.deliver(record)
            harness.clock.advance(20)
            await harness.worker.pass()
            #expect(try await harness.only(.dead)?.attempts == 2)
            let expiring = try await harness.mail(expiresIn: 60)
            harness.clock.advance(61)
            await harness.outbox.deliver(expiring)
            #expect(harness.sender.tries == 2, "a code past its expiry is not sent")
            #expect(try await harness.repository.messages(in: .dead, limit: 10).last?.lastError == "its code or link expired before it could be sent")
        }
    }

    @Test func aKilledInstancesMessageIsSentByAnotherOnceItsLeaseRunsOutAndOnlyOnce() async throws {
        try await Self.with([]) { harness in
            // Stored and leased for a first send the killed process never made.
            let record = try await harness.mail()
            await harness.worker.pass()
            #expect(harness.sender.tries == 0, "held by its lease")
            harness.clock.advance(harness.outbox.policy.lease)
            async let first: Void = harness.worker.pass()
            async let second: Void = harness.worker.pass()
            _ = await (first, second)
            #expect(harness.sender.ids.withLockedValue { $0 } == [record.id])
            #expect(try await harness.only(.sent)?.id == record.id)
        }
    }

    @Test func aPayloadMovedToAnotherRowDoesNotOpen() async throws {
        try await Self.with([]) { harness in
            var record = try await harness.mail()
            try await harness.repository.deleteMessage(id: record.id)
            record.id = "ghx_other"
            try await harness.repository.queueMessage(record)
            await harness.outbox.deliver(record)
            #expect(harness.sender.tries == 0)
            #expect(try await harness.only(.dead)?.lastError == "its content cannot be opened (another key-encryption key?)")
        }
    }
}
