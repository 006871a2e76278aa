import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseSQL
import Logging

/// `gatehouse backup --to FILE`: a consistent copy of a live SQLite database while servers run.
public struct BackupCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy a live SQLite database consistently, while servers keep serving (PostgreSQL: pg_dump, see docs/deploy.md)."
    )

    public init() {}

    @OptionGroup var storage: DatabaseOptions
    @Option(help: "The file to write; it must not exist.") var to: String

    public func run() async throws {
        guard case .sqlite(let path) = try storage.location() else {
            throw ValidationError("backup copies SQLite databases; for PostgreSQL use pg_dump (docs/deploy.md)")
        }
        let summary = try await SQLiteBackup.backup(database: path, to: to, logger: Logger(label: "gatehouse"))
        print("Backed up \(path) to \(to): \(summary.accounts) accounts, schema version \(summary.schemaVersion), \(summary.bytes) bytes.")
        print(Self.keyReminder(for: path))
    }

    /// Where the key-encryption key is, which no backup holds and every restore needs.
    static func keyReminder(for path: String) -> String {
        if ProcessInfo.processInfo.environment["GATEHOUSE_KEY_ENCRYPTION_KEY"].map({ !$0.isEmpty }) == true {
            return "The key-encryption key is not in the backup: keep GATEHOUSE_KEY_ENCRYPTION_KEY with it; both are needed to restore."
        }
        return "The key-encryption key is not in the backup: keep \(path).kek with it (put it beside the restored database); both are needed."
    }
}

/// `gatehouse restore --from FILE`: puts a backup in place of a stopped SQLite database.
public struct RestoreCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace an SQLite database no server has open with a checked backup, then migrate it forward."
    )

    public init() {}

    @OptionGroup var storage: DatabaseOptions
    @Option(help: "The backup file `gatehouse backup` wrote.") var from: String

    public func run() async throws {
        guard case .sqlite(let path) = try storage.location() else {
            throw ValidationError("restore replaces SQLite databases; for PostgreSQL use pg_restore (docs/deploy.md)")
        }
        let summary = try await SQLiteBackup.restore(from: from, to: path, logger: Logger(label: "gatehouse"))
        print("Restored \(from) to \(path): \(summary.accounts) accounts, integrity ok, schema version \(summary.schemaVersion) migrated forward.")
        if !FileManager.default.fileExists(atPath: path + ".kek"),
           ProcessInfo.processInfo.environment["GATEHOUSE_KEY_ENCRYPTION_KEY"].map({ !$0.isEmpty }) != true {
            print("Put the key-encryption key the backup was made with at \(path).kek (mode 0600) before starting a server.")
        }
    }
}
