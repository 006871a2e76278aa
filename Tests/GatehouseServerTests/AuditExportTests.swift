import Crypto
import Foundation
import GatehouseCore
import GatehouseDelivery
@testable import GatehouseServer
import GatehouseSQL
import Logging
import NIOConcurrencyHelpers
import Testing

/// Issue 40: audit batches for the SIEM's webhook leave through the outbox. Each written batch
/// and its outbox row are one transaction; a refused POST is retried under the same id (the
/// `webhook-id`); the audit channel's own sends are never audited, so nothing loops.
@Suite struct AuditExportTests {
    /// A webhook that answers from a script (then accepts), keeping each batch it took.
    final class Receiver: MessageSender {
        let script: NIOLockedValueBox<[DeliveryError?]>
        let batches = NIOLockedValueBox<[AuditBatch]>([])
        let tries = NIOLockedValueBox(0)
        init(_ script: [DeliveryError?]) { self.script = NIOLockedValueBox(script) }
        func send(_ message: OutgoingMessage) async throws {
            guard case .audit(let batch) = message else { throw DeliveryError("not an audit batch", permanent: true) }
            tries.withLockedValue { $0 += 1 }
            if let failure = script.withLockedValue({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
            batches.withLockedValue { $0.append(batch) }
        }
    }

    @Test func aRefusedBatchIsKeptWithItsEntriesAndSentOnceUnderOneIdWithoutAuditingItsOwnSends() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-export-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let logger = Logger(label: "audit-export-test")
        try await Storage.with(.sqlite(path: path), logger: logger) { storage in
            let repository = storage.repository
            try await repository.migrate()
            let clock = MessageOutboxTests.Clock()
            let outbox = MessageOutbox(
                repository: repository, kek: SymmetricKey(size: .bits256), deliveries: nil, clock: { clock.now }, logger: logger
            )
            let receiver = Receiver([DeliveryError("http: 503")])
            let dispatch = MessageDispatch(
                channel: .auditWebhook, throttles: repository, budget: nil, perHour: .max, overBudgetResult: .dropped, sender: receiver,
                references: AccountKeys(key: SymmetricKey(size: .bits256)), logger: logger
            )
            let log = AuditLog(repository: repository, clock: { clock.now }, logger: logger)
            outbox.register(dispatch)
            log.forward(through: outbox)

            log.record(.signInRefused(account: "ref", method: .password, reason: .invalidCredentials, userID: nil), at: clock.now, address: "192.0.2.1", device: nil)
            log.record(.signedUp(userID: "u1"), at: clock.now, address: "192.0.2.1", device: nil)
            try await log.flush()
            // Written together: the two entries and one pending batch.
            #expect(try await repository.auditEntries(AuditQuery()).count == 2)
            let queued = try await repository.messages(in: .pending, limit: 10)
            #expect(queued.count == 1 && queued.first?.channel == .auditWebhook && queued.first?.purpose == .auditExport)
            let id = try #require(queued.first?.id)
            // The first try (after the answer, here a task) is refused; the row waits for its retry.
            try await waitUntil { try await repository.messages(in: .pending, limit: 10).first?.attempts == 1 }
            #expect(receiver.batches.withLockedValue { $0 }.isEmpty)
            clock.advance(60)
            await OutboxWorker(outbox: outbox, releasesLeasesAtStart: true).pass()
            let delivered = receiver.batches.withLockedValue { $0 }
            #expect(delivered.map(\.id) == [id], "sent once, under the row's id")
            #expect(delivered.first?.entries.map(\.type) == ["sign_in.refused", "account.signed_up"])
            #expect(try await repository.messages(in: .sent, limit: 10).map(\.id) == [id])
            // Its sends are not audited, so no new batch follows.
            try await log.flush()
            #expect(try await repository.auditEntries(AuditQuery(types: ["message."])).isEmpty)
            #expect(try await repository.messages(in: .pending, limit: 10).isEmpty)
            #expect(receiver.tries.withLockedValue { $0 } == 2)
        }
    }

    @Test func theComposedAuditChannelIsUnmeteredReportsToNoSinkAndExistsOnlyWithAWebhook() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-compose-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try await Storage.with(.sqlite(path: path), logger: Logger(label: "test")) { storage in
            var configuration = GatehouseConfiguration()
            let keys = AccountKeys(key: SymmetricKey(size: .bits256))
            #expect(try AuditLog.exports(configuration, throttles: storage.repository, references: keys, logger: Logger(label: "test")) == nil)
            configuration.audit.webhook = ("http://127.0.0.1:9/audit", "whsec_" + Data(repeating: 7, count: 32).base64EncodedString())
            let exports = try #require(try AuditLog.exports(configuration, throttles: storage.repository, references: keys, logger: Logger(label: "test")))
            #expect(exports.channel == .auditWebhook && exports.budget == nil && exports.sender is WebhookAuditExporter)
            #expect(exports.events == nil, "a send reported to the audit log would be exported again, for ever")
        }
    }
}
