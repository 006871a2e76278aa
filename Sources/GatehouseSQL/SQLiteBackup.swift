import Foundation
import GatehouseModel
import Logging
import SQLKit

/// Online backup and restore of an SQLite database (issue 40).
///
/// A backup is `VACUUM INTO`: one read transaction, so the copy is consistent while servers keep
/// writing, and compact. A restore checks the copy first (`PRAGMA integrity_check`, a schema no
/// newer than this build), refuses a database any process has open, puts the copy in place
/// and migrates it forward. Neither touches the key-encryption key, which is never in the
/// database: the copy needs the key it was sealed with.
public enum SQLiteBackup {
    /// What a backup or a restore found in the copy.
    public struct Summary: Sendable, Equatable {
        public let bytes: Int
        public let schemaVersion: Int
        public let accounts: Int
    }

    /// Why a backup or a restore did nothing.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noDatabase(String)
        case destinationExists(String)
        case inUse(String)
        case damaged(String, detail: String)
        case newerSchema(String, version: Int, supported: Int)

        public var description: String {
            switch self {
            case .noDatabase(let path): "\(path): no such database file"
            case .destinationExists(let path): "\(path) already exists; a backup never overwrites a file"
            case .inUse(let path): "\(path) is open in a running server; stop every server that uses it first"
            case .damaged(let path, let detail): "\(path) is not an intact Gatehouse database: \(detail)"
            case .newerSchema(let path, let version, let supported):
                "\(path) has schema version \(version), newer than this build's \(supported); restore it with a newer gatehouse"
            }
        }
    }

    /// Copies the live database at `path` to `destination` (which must not exist), owner-only.
    public static func backup(database path: String, to destination: String, logger: Logger) async throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw Failure.noDatabase(path) }
        guard !FileManager.default.fileExists(atPath: destination) else { throw Failure.destinationExists(destination) }
        let database = try await SQLiteDatabase(path: path, logger: logger)
        do {
            try await copy(database, into: destination)
            try await database.close()
        } catch {
            try? await database.close()
            throw error
        }
        return try await inspect(destination, logger: logger)
    }

    /// `VACUUM INTO` a file made empty and owner-only first, which SQLite fills and whose mode
    /// it keeps (a file SQLite makes itself is anyone's to read until a `chmod` after it);
    /// removed again if the copy fails.
    private static func copy(_ database: SQLiteDatabase, into destination: String) async throws {
        do {
            try OwnerOnlyFile.create(atPath: destination)
        } catch let error as POSIXError where error.code == .EEXIST {
            throw Failure.destinationExists(destination)
        }
        do {
            try await database.sql.raw("VACUUM INTO \(bind: destination)").run()
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }

    /// Replaces the database at `target` with the backup at `source`, checked first, and
    /// migrates it to this build's schema.
    public static func restore(from source: String, to target: String, logger: Logger) async throws -> Summary {
        guard FileManager.default.fileExists(atPath: source) else { throw Failure.noDatabase(source) }
        if FileManager.default.fileExists(atPath: target) { try await requireUnused(target, logger: logger) }
        let staging = target + ".restoring"
        try? FileManager.default.removeItem(atPath: staging)
        try OwnerOnlyFile.copy(from: source, to: staging)
        let summary: Summary
        do {
            summary = try await inspect(staging, logger: logger, reportedAs: source)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: target + suffix) }
        // One rename: the target is the old database or the checked copy, never a mix.
        guard rename(staging, target) == 0 else {
            try? FileManager.default.removeItem(atPath: staging)
            throw Failure.damaged(target, detail: "could not be replaced: \(String(cString: strerror(errno)))")
        }
        try await Storage.with(.sqlite(path: target), logger: logger) { storage in
            try await storage.repository.migrate()
        }
        return summary
    }

    /// Refuses a database another connection has open: leaving WAL mode needs it to be the only one.
    static func requireUnused(_ path: String, logger: Logger) async throws {
        let database = try await SQLiteDatabase(path: path, logger: logger)
        do {
            try await database.sql.raw("PRAGMA busy_timeout = 0").run()
            try await database.sql.raw("PRAGMA journal_mode = DELETE").run()
            try await database.close()
        } catch {
            try? await database.close()
            throw Failure.inUse(path)
        }
    }

    /// The copy's integrity, schema version and size; a damaged or too new copy is refused.
    static func inspect(_ path: String, logger: Logger, reportedAs name: String? = nil) async throws -> Summary {
        let name = name ?? path
        let database: SQLiteDatabase
        do {
            database = try await SQLiteDatabase(path: path, logger: logger)
        } catch {
            throw Failure.damaged(name, detail: "\(error)")
        }
        do {
            let summary = try await summary(of: database.sql, path: path, name: name)
            try await database.close()
            return summary
        } catch {
            try? await database.close()
            if let failure = error as? Failure { throw failure }
            throw Failure.damaged(name, detail: "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "unreadable")
        }
    }

    private static func summary(of db: any SQLDatabase, path: String, name: String) async throws -> Summary {
        struct Check: Decodable { let integrity_check: String }
        struct Count: Decodable { let count: Int }
        let checks = try await db.raw("PRAGMA integrity_check").all(decoding: Check.self).map(\.integrity_check)
        guard checks == ["ok"] else { throw Failure.damaged(name, detail: checks.prefix(3).joined(separator: "; ")) }
        guard let version = try await SchemaMigrations.version(in: db) else { throw Failure.damaged(name, detail: "no Gatehouse schema") }
        let supported = SchemaMigrations(repository: SQLRepository(database: db)).steps.count
        guard version <= supported else { throw Failure.newerSchema(name, version: version, supported: supported) }
        let accounts = try await db.raw("SELECT COUNT(*) AS count FROM users").first(decoding: Count.self)?.count ?? 0
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return Summary(bytes: bytes, schemaVersion: version, accounts: accounts)
    }
}
