import ArgumentParser
import Foundation
import GatehouseCommands
import GatehouseCore

extension OutboxState: ExpressibleByArgument {}

extension Gatehouse {
    /// `gatehouse outbox`: what waits to be sent, what was given up on, and sending it again.
    struct Outbox: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List outgoing mail and SMS waiting to be sent (or dead-lettered), and send dead ones again.",
            subcommands: [List.self, Retry.self], defaultSubcommand: List.self
        )
    }
}

extension Gatehouse.Outbox {
    /// `gatehouse outbox [--state pending|dead|sent] [--json]`: the messages in one state, oldest
    /// first, with a summary; never their content (addresses, links, codes).
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the messages in one state (default: pending), oldest first.")
        @OptionGroup var storage: DatabaseOptions
        @Option(help: "pending, dead or sent.") var state: OutboxState = .pending
        @Option(help: "At most this many messages (default 100).") var limit = 100
        @Flag(help: "One JSON object per line.") var json = false

        func validate() throws {
            guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 100000") }
        }

        /// One message as the CLI shows it.
        struct Line: Encodable {
            let id, channel, purpose, state: String
            let attempts: Int
            let createdAt: Date
            let nextAttemptAt: Date?
            let sentAt: Date?
            let lastError: String?

            enum CodingKeys: String, CodingKey {
                case id, channel, purpose, state, attempts
                case createdAt = "created_at", nextAttemptAt = "next_attempt_at", sentAt = "sent_at", lastError = "last_error"
            }

            init(_ record: OutboxRecord) {
                (id, channel, purpose, state) = (record.id, record.channel.rawValue, record.purpose.rawValue, record.state.rawValue)
                (attempts, createdAt, sentAt, lastError) = (record.attempts, record.createdAt, record.sentAt, record.lastError)
                nextAttemptAt = record.state == .pending ? record.nextAttemptAt : nil
            }
        }

        func run() async throws {
            let (records, backlog) = try await storage.withStorage { storage in
                (try await storage.repository.messages(in: state, limit: limit), try await storage.repository.outboxBacklog())
            }
            if json {
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for record in records { print(String(decoding: try encoder.encode(Line(record)), as: UTF8.self)) }
                return
            }
            let formatter = ISO8601DateFormatter()
            print("\(backlog.pending) pending, \(backlog.dead) dead")
            guard !records.isEmpty else { return }
            print(["ID", "CHANNEL", "PURPOSE", "ATTEMPTS", "CREATED", state == .sent ? "SENT" : "NEXT TRY", "LAST ERROR"].joined(separator: "\t"))
            for record in records {
                let when = state == .sent ? record.sentAt.map(formatter.string) : state == .pending ? formatter.string(from: record.nextAttemptAt) : nil
                print([
                    record.id, record.channel.rawValue, record.purpose.rawValue, "\(record.attempts)", formatter.string(from: record.createdAt),
                    when ?? "-", record.lastError ?? "-",
                ].joined(separator: "\t"))
            }
        }
    }

    /// `gatehouse outbox retry ID|--dead`: puts dead-lettered messages back in line; a running
    /// server sends them within its poll interval.
    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put a dead-lettered message (or, with --dead, every one) back in line to be sent.")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The message's id (from `gatehouse outbox --state dead`).") var id: String?
        @Flag(help: "Every dead-lettered message.") var dead = false

        func validate() throws {
            switch (id, dead) {
            case (nil, false): throw ValidationError("name a message's id, or pass --dead for every dead-lettered one")
            case (.some, true): throw ValidationError("pass a message's id or --dead, not both")
            case (.some(let id), false) where !id.hasPrefix("ghx_") || id.count > 64: throw ValidationError("'\(id.prefix(64))' is not an outbox id (ghx_…)")
            default: return
            }
        }

        func run() async throws {
            let count = try await storage.withStorage { storage in
                try await storage.repository.requeueDeadMessages(id: dead ? nil : id, at: Date())
            }
            if let id, !dead, count == 0 { throw CommandFailure("no dead-lettered message has the id \(id)") }
            guard count > 0 else { return print("No dead-lettered messages.") }
            print("\(count) message\(count == 1 ? "" : "s") back in line; a running server sends \(count == 1 ? "it" : "them") within a second.")
        }
    }
}
