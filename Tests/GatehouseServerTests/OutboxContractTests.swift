import Foundation
import GatehouseCore
import GatehouseSQL
import Testing

/// Issue 40: the outbox's storage contract, on SQLite and PostgreSQL alike: a secret and its
/// message, and audit entries and their webhook batch, are written together or not at all; a due message is leased to one instance only;
/// a sent one loses its content; dead ones come back on an operator's word.
@Suite struct OutboxContractTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now

    static func message(_ id: String, at date: Date = now, lease: Date? = nil) -> OutboxRecord {
        OutboxRecord(
            id: id, channel: .email, purpose: .recovery, recipient: "ref-\(id)", sealedPayload: "sealed-\(id)", nextAttemptAt: date,
            leaseUntil: lease, createdAt: date
        )
    }

    static func secret(_ id: String, target: String = "ann@example.com") -> OneTimeSecret {
        OneTimeSecret(
            purpose: .passwordReset, id: id, target: target, secretMAC: "mac", data: Data("{}".utf8), createdAt: now,
            expiresAt: now.addingTimeInterval(3600)
        )
    }

    @Test(arguments: Engine.available)
    func aSecretAndItsMessageAreStoredTogetherOrNotAtAll(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            try await repository.putSecret(Self.secret("s1"), queueing: Self.message("ghx_1"))
            #expect(try await repository.secret(.passwordReset, id: "s1") != nil)
            #expect(try await repository.messages(in: .pending, limit: 10).map(\.id) == ["ghx_1"])
            // The message's id is taken, so its insert fails: the new secret must not replace the old.
            await #expect(throws: (any Error).self) {
                try await repository.putSecret(Self.secret("s2"), queueing: Self.message("ghx_1"))
            }
            #expect(try await repository.secret(.passwordReset, id: "s2") == nil, "rolled back with its message")
            #expect(try await repository.secret(.passwordReset, target: "ann@example.com")?.id == "s1")
        }
    }

    @Test(arguments: Engine.available)
    func auditEntriesAndTheBatchThatForwardsThemAreStoredTogetherOrNotAtAll(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            let entry = { (type: String) in AuditEntry(at: Self.now, type: type, account: "ref") }
            var export = Self.message("ghx_a1")
            export.channel = .auditWebhook
            export.purpose = .auditExport
            try await repository.appendAuditEntries([entry("sign_in.refused"), entry("sign_in.succeeded")], queueing: export)
            #expect(try await repository.auditEntries(AuditQuery()).count == 2)
            let queued = try await repository.messages(in: .pending, limit: 10)
            #expect(queued.map(\.id) == ["ghx_a1"] && queued.first?.channel == .auditWebhook && queued.first?.purpose == .auditExport)
            // The batch's id is taken, so its insert fails: its entries must not be written either.
            await #expect(throws: (any Error).self) {
                try await repository.appendAuditEntries([entry("session.ended")], queueing: export)
            }
            #expect(try await repository.auditEntries(AuditQuery()).map(\.type).sorted() == ["sign_in.refused", "sign_in.succeeded"])
        }
    }

    @Test(arguments: Engine.available)
    func aDueMessageIsLeasedToOneInstanceOnlyAndALeaseThatRanOutIsTakenAgain(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 2) { repositories in
            for index in 0..<20 { try await repositories[0].queueMessage(Self.message("ghx_\(index)")) }
            try await repositories[0].queueMessage(Self.message("ghx_later", at: Self.now.addingTimeInterval(60)))
            try await repositories[0].queueMessage(Self.message("ghx_held", lease: Self.now.addingTimeInterval(30)))
            // Six claimers on two instances race for the twenty due, unleased messages.
            let claimed = await withTaskGroup(of: [String].self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let records = try? await repositories[index % 2].claimMessages(
                            due: Self.now, leaseUntil: Self.now.addingTimeInterval(120), limit: 5
                        )
                        return records?.map(\.id) ?? []
                    }
                }
                return await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(claimed.count == 20)
            #expect(Set(claimed).count == 20, "no message went to two claimers")
            #expect(!claimed.contains("ghx_later") && !claimed.contains("ghx_held"))
            #expect(try await repositories[1].claimMessages(due: Self.now, leaseUntil: Self.now.addingTimeInterval(120), limit: 50).isEmpty)
            // Two minutes on, every lease has run out (its holder died): all are due again.
            let later = Self.now.addingTimeInterval(121)
            let retaken = try await repositories[1].claimMessages(due: later, leaseUntil: later.addingTimeInterval(120), limit: 50)
            #expect(retaken.count == 22)
            try await repositories[0].releaseMessageLeases()
            #expect(try await repositories[0].claimMessages(due: later, leaseUntil: later.addingTimeInterval(120), limit: 50).count == 22)
        }
    }

    @Test(arguments: Engine.available)
    func aSentMessageLosesItsContentAndADeadOneComesBackOnlyWhenAsked(engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine) { repositories in
            let repository = repositories[0]
            for id in ["ghx_a", "ghx_b", "ghx_c"] { try await repository.queueMessage(Self.message(id)) }
            try await repository.markMessageSent(id: "ghx_a", at: Self.now)
            try await repository.retryMessageLater(id: "ghx_b", attempts: 1, at: Self.now.addingTimeInterval(10), error: "smtp: 451")
            try await repository.deadLetterMessage(id: "ghx_c", attempts: 3, error: "smtp: 550")
            // Settling is for pending messages only: a late, repeated "sent" changes nothing.
            try await repository.markMessageSent(id: "ghx_c", at: Self.now)
            let sent = try #require(try await repository.messages(in: .sent, limit: 10).first)
            #expect(sent.id == "ghx_a" && sent.sealedPayload == nil && sent.sentAt == Self.now)
            let waiting = try #require(try await repository.messages(in: .pending, limit: 10).first)
            #expect(waiting.attempts == 1 && waiting.lastError == "smtp: 451" && waiting.nextAttemptAt == Self.now.addingTimeInterval(10))
            let dead = try #require(try await repository.messages(in: .dead, limit: 10).first)
            #expect(dead.id == "ghx_c" && dead.sealedPayload == "sealed-ghx_c", "kept for a retry")
            #expect(try await repository.outboxBacklog() == OutboxBacklog(pending: 1, dead: 1, oldestPendingAt: Self.now))
            #expect(try await repository.requeueDeadMessages(id: "ghx_nope", at: Self.now) == 0)
            #expect(try await repository.requeueDeadMessages(id: nil, at: Self.now.addingTimeInterval(5)) == 1)
            let back = try await repository.claimMessages(due: Self.now.addingTimeInterval(5), leaseUntil: Self.now.addingTimeInterval(60), limit: 10)
            #expect(back.map(\.id) == ["ghx_c"] && back.first?.attempts == 0)
            #expect(try await repository.pruneSentMessages(before: Self.now) == 0)
            #expect(try await repository.pruneSentMessages(before: Self.now.addingTimeInterval(1)) == 1)
            #expect(try await repository.messages(in: .sent, limit: 10).isEmpty)
        }
    }
}
