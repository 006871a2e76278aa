import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseSQL
import Logging
import Testing

/// Issue 40's SQLite backup and restore, on files: what a restore refuses and what it keeps.
@Suite struct SQLiteBackupTests {
    static let logger = Logger(label: "backup-test")

    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func database(at path: String, accounts: Int) async throws {
        try await Storage.with(.sqlite(path: path), logger: logger) { storage in
            try await storage.repository.migrate()
            for index in 0..<accounts {
                let user = UserRecord(email: "u\(index)@example.com", name: PersonName(full: "U \(index)"), createdAt: Date())
                try await storage.repository.createUser(user, identities: [
                    IdentityRecord(userID: user.id, provider: .email, subject: "u\(index)@example.com", verifiedAt: nil, createdAt: Date()),
                ], passwordHash: "hash")
            }
        }
    }

    @Test func aBackupRestoresItsAccountsAndRefusesToOverwriteAnything() async throws {
        let folder = try Self.folder()
        let source = folder.appendingPathComponent("live.sqlite").path, copy = folder.appendingPathComponent("copy.sqlite").path
        try await Self.database(at: source, accounts: 3)
        let made = try await SQLiteBackup.backup(database: source, to: copy, logger: Self.logger)
        #expect(made.accounts == 3 && made.schemaVersion >= 21)
        await #expect(throws: SQLiteBackup.Failure.destinationExists(copy)) {
            try await SQLiteBackup.backup(database: source, to: copy, logger: Self.logger)
        }
        let target = folder.appendingPathComponent("restored.sqlite").path
        #expect(try await SQLiteBackup.restore(from: copy, to: target, logger: Self.logger) == made)
        let users = try await Storage.with(.sqlite(path: target), logger: Self.logger) { try await $0.repository.allUsers() }
        #expect(Set(users.compactMap(\.email)) == ["u0@example.com", "u1@example.com", "u2@example.com"])
    }

    @Test func aRestoreRefusesAnOpenDatabaseAndANewerSchemaAndChangesNothing() async throws {
        let folder = try Self.folder()
        let source = folder.appendingPathComponent("live.sqlite").path, copy = folder.appendingPathComponent("copy.sqlite").path
        try await Self.database(at: source, accounts: 1)
        _ = try await SQLiteBackup.backup(database: source, to: copy, logger: Self.logger)
        let open = try await Storage.open(.sqlite(path: source), logger: Self.logger)
        _ = try await open.repository.allUsers()
        await #expect(throws: SQLiteBackup.Failure.inUse(source)) { try await SQLiteBackup.restore(from: copy, to: source, logger: Self.logger) }
        try await open.close()

        try await Storage.with(.sqlite(path: copy), logger: Self.logger) { try await $0.execute("UPDATE gatehouse_schema SET version = 999") }
        let target = folder.appendingPathComponent("target.sqlite").path
        await #expect(throws: SQLiteBackup.Failure.self) { try await SQLiteBackup.restore(from: copy, to: target, logger: Self.logger) }
        #expect(!FileManager.default.fileExists(atPath: target) && !FileManager.default.fileExists(atPath: target + ".restoring"))
    }
}
