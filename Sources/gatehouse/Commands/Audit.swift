import ArgumentParser
import Foundation
import GatehouseCommands
import GatehouseCore
import GatehousePhoneNumbers

extension Gatehouse {
    /// `gatehouse audit`: reads the audit log, newest first.
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the audit log, newest first: sign-ins, refusals, ended sessions, mail and codes sent, admin actions."
        )
        @OptionGroup var storage: DatabaseOptions
        @Option(help: "Only this account's entries: its email or its id.") var user: String?
        @Option(help: "Only entries this recent: 24h, 7d, 90m.") var since: String?
        @Option(help: "Only this type (sign_in.refused), or types starting so (admin.); repeatable.") var type: [String] = []
        @Option(help: "At most this many entries (default 100).") var limit = 100
        @Flag(help: "One JSON object per line.") var json = false

        func validate() throws {
            if let since, TimeSpan.seconds(since) == nil { throw ValidationError("--since '\(since.prefix(40))' is not a length of time such as 24h or 7d") }
            guard (1...100_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 100000") }
            for type in type where type.isEmpty || type.count > 64 || !type.allSatisfy({ $0.isASCII && ($0.isLowercase || $0 == "_" || $0 == ".") }) {
                throw ValidationError("--type '\(type.prefix(64))' is not an entry type such as sign_in.refused or admin.")
            }
        }

        func run() async throws {
            var query = AuditQuery(types: type, limit: limit)
            if let since, let seconds = TimeSpan.seconds(since) { query.since = Date().addingTimeInterval(-seconds) }
            let entries = try await storage.withStorage { storage in
                if let user {
                    let selector: AccountSelector = user.contains("@") ? .email(user) : .id(user)
                    let admin = UserAdministration(repository: storage.repository, numbers: LibPhoneNumber())
                    let account = try await admin.account(selector)
                    let keys = try await AccountKeys.open(storage.repository)
                    query.userID = account.id
                    query.accounts = try await admin.identities(of: account)
                        .filter { $0.provider == .email || $0.provider == .phone }
                        .map { keys.reference(for: $0.subject) }
                }
                return try await storage.repository.auditEntries(query)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .iso8601
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for entry in entries { print(String(decoding: try encoder.encode(entry), as: UTF8.self)) }
                return
            }
            let formatter = ISO8601DateFormatter()
            print(["TIME", "TYPE", "USER", "ADDRESS", "DEVICE", "DETAILS"].joined(separator: "\t"))
            for entry in entries {
                let who: String = entry.userID ?? entry.account.map { "ref:" + $0.prefix(12) } ?? "-"
                var details: [String] = entry.actor.map { ["actor=\($0)"] } ?? []
                for (key, value) in entry.details.sorted(by: { $0.key < $1.key }) { details.append("\(key)=\(value)") }
                let columns: [String] = [
                    formatter.string(from: entry.at), entry.type, who, entry.address ?? "-", entry.device ?? "-",
                    details.isEmpty ? "-" : details.joined(separator: " "),
                ]
                print(columns.joined(separator: "\t"))
            }
        }
    }
}
