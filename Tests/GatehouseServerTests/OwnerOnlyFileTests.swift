import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseModel
import GatehouseSQL
import GatehouseTestSupport
import Logging
import Testing

#if os(Linux)
import Glibc

/// Files holding secrets are owner-only from the moment they exist: created with mode 0600 by
/// the `open(2)` that makes them, never made readable to others and narrowed after.
///
/// `FileManager.createFile(atPath:contents:attributes:)` wrote the contents into a file of mode
/// 0644, renamed it into place and only then changed its mode, so anyone on the machine could
/// open it meanwhile (and read it for as long as they kept it open). The kernel reports every
/// mode change as an `IN_ATTRIB` event: a file created owner-only never needs one.
@Suite struct OwnerOnlyFileTests {
    /// What a writer left: the file's mode, the files whose attributes changed, the files made
    /// and the files written to.
    static func written(_ name: String, in folder: WatchedFolder) throws -> (mode: Int, modesChanged: [String], made: [String], writes: [String]) {
        let events = folder.events()
        return (try folder.mode(of: name), events.attributesChanged, events.made, events.written)
    }

    @Test func aCreatedFileIsOwnerOnlyFromItsFirstMoment() throws {
        let folder = try WatchedFolder()
        try OwnerOnlyFile.create(atPath: folder.path + "/secret", contents: Data("s3cret".utf8))
        let result = try Self.written("secret", in: folder)
        #expect(result.mode == 0o600)
        #expect(result.modesChanged.isEmpty, "created 0600, not narrowed after")
        #expect(result.made.last == "secret")
        #expect(try String(contentsOfFile: folder.path + "/secret", encoding: .utf8) == "s3cret")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["secret"], "its staging name is gone")
        #expect(!result.writes.contains("secret"), "whole from the moment it has its name")
    }

    /// Of two servers making the key file at once, one wins and the other reads the winner's
    /// key: it must find the whole key the moment the file has its name. A file made by
    /// `open(2)` and written after read as empty in that moment, a malformed key.
    @Test func theKeyFileHasItsWholeKeyFromTheMomentItHasItsName() throws {
        let folder = try WatchedFolder()
        _ = try KeyEncryptionKey.resolve(nil, location: .sqlite(path: folder.path + "/gatehouse.sqlite"))
        let events = folder.events()
        #expect(events.made.contains("gatehouse.sqlite.kek"))
        #expect(!events.written.contains("gatehouse.sqlite.kek"), "written under another name, then linked")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["gatehouse.sqlite.kek"])
    }

    @Test func aCopyThatFailsPartWayLeavesNothingBehind() throws {
        let folder = try WatchedFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/not-a-file", withIntermediateDirectories: false)
        #expect(throws: POSIXError(.EISDIR)) { try OwnerOnlyFile.copy(from: folder.path + "/not-a-file", to: folder.path + "/copy") }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/copy"))
    }

    @Test func creatingOverAnExistingFileFailsAndLeavesItAsItWas() throws {
        let folder = try WatchedFolder()
        try OwnerOnlyFile.create(atPath: folder.path + "/secret", contents: Data("first".utf8))
        #expect(throws: POSIXError(.EEXIST)) { try OwnerOnlyFile.create(atPath: folder.path + "/secret", contents: Data("second".utf8)) }
        try OwnerOnlyFile.createIfMissing(atPath: folder.path + "/secret")
        #expect(try String(contentsOfFile: folder.path + "/secret", encoding: .utf8) == "first")
    }

    @Test func aReplacedFileIsSwappedWholeAndOwnerOnlyWithNothingLeftBeside() throws {
        let folder = try WatchedFolder()
        try OwnerOnlyFile.replace(atPath: folder.path + "/session.json", contents: Data("old".utf8))
        try OwnerOnlyFile.replace(atPath: folder.path + "/session.json", contents: Data("new".utf8))
        let result = try Self.written("session.json", in: folder)
        #expect(result.mode == 0o600)
        #expect(result.modesChanged.isEmpty)
        #expect(try String(contentsOfFile: folder.path + "/session.json", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["session.json"])
    }

    @Test func aCopyHoldsEveryByteOfALargeFileAndIsOwnerOnly() throws {
        let folder = try WatchedFolder()
        let bytes = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: URL(fileURLWithPath: folder.path + "/source"))
        _ = folder.events()
        try OwnerOnlyFile.copy(from: folder.path + "/source", to: folder.path + "/copy")
        let result = try Self.written("copy", in: folder)
        #expect(result.mode == 0o600)
        #expect(result.modesChanged.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path + "/copy")) == bytes)
        #expect(throws: POSIXError(.EEXIST)) { try OwnerOnlyFile.copy(from: folder.path + "/source", to: folder.path + "/copy") }
    }

    @Test func theKeyEncryptionKeyFileIsOwnerOnlyFromItsFirstMoment() throws {
        let folder = try WatchedFolder()
        _ = try KeyEncryptionKey.resolve(nil, location: .sqlite(path: folder.path + "/gatehouse.sqlite"))
        let result = try Self.written("gatehouse.sqlite.kek", in: folder)
        #expect(result.mode == 0o600)
        #expect(result.modesChanged.isEmpty)
    }

    @Test func aNewDatabaseAndItsJournalAreOwnerOnlyFromTheirFirstMoment() async throws {
        let folder = try WatchedFolder()
        let database = try await SQLiteDatabase(path: folder.path + "/gatehouse.sqlite", logger: Logger(label: "test"))
        try await database.sql.raw("CREATE TABLE t (x)").run()
        let result = try Self.written("gatehouse.sqlite", in: folder)
        let journal = try folder.mode(of: "gatehouse.sqlite-wal")  // SQLite removes it on the last close
        try await database.close()
        #expect(result.mode == 0o600)
        #expect(journal == 0o600, "SQLite opens its journals with the database's mode")
        // SQLite itself changes its journals' owner to the database's when it runs as root (the
        // kernel reports a chown as the same event); the database file is Gatehouse's to make.
        #expect(!result.modesChanged.contains("gatehouse.sqlite"), "narrowed after it was made: \(result.modesChanged)")
    }

    @Test func aBackupIsOwnerOnlyFromItsFirstMoment() async throws {
        let folder = try WatchedFolder()
        let database = try await SQLiteDatabase(path: folder.path + "/live.sqlite", logger: Logger(label: "test"))
        try await SQLRepository(database: database.sql).migrate()
        try await database.close()
        _ = folder.events()
        _ = try await SQLiteBackup.backup(database: folder.path + "/live.sqlite", to: folder.path + "/backup.sqlite", logger: Logger(label: "test"))
        let result = try Self.written("backup.sqlite", in: folder)
        #expect(result.mode == 0o600)
        #expect(!result.modesChanged.contains("backup.sqlite"))
    }

    @Test func aRestoredDatabaseIsOwnerOnlyFromItsFirstMoment() async throws {
        let folder = try WatchedFolder()
        let database = try await SQLiteDatabase(path: folder.path + "/live.sqlite", logger: Logger(label: "test"))
        try await SQLRepository(database: database.sql).migrate()
        try await database.close()
        _ = try await SQLiteBackup.backup(database: folder.path + "/live.sqlite", to: folder.path + "/backup.sqlite", logger: Logger(label: "test"))
        _ = folder.events()
        _ = try await SQLiteBackup.restore(from: folder.path + "/backup.sqlite", to: folder.path + "/restored.sqlite", logger: Logger(label: "test"))
        let result = try Self.written("restored.sqlite", in: folder)
        #expect(result.mode == 0o600)
        #expect(result.made.contains("restored.sqlite.restoring"), "checked under its staging name first: \(result.made)")
        #expect(!result.modesChanged.contains("restored.sqlite.restoring") && !result.modesChanged.contains("restored.sqlite"), "\(result.modesChanged)")
    }

    @Test func theDevelopmentOutboxIsOwnerOnlyFromItsFirstMoment() throws {
        let folder = try WatchedFolder()
        try JSONLinesOutbox(path: folder.path + "/outbox.jsonl").append(["code": "123456"])
        let result = try Self.written("outbox.jsonl", in: folder)
        #expect(result.mode == 0o600)
        #expect(result.modesChanged.isEmpty)
    }
}
#endif
