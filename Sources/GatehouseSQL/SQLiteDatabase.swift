import Foundation
import GatehouseModel
import Logging
import NIOPosix
import SQLiteKit
import ServiceLifecycle

/// An SQLite file opened for Gatehouse: WAL journal, foreign keys on, a busy timeout.
///
/// One connection serves the whole process; SQLite serialises writers anyway. Every statement
/// runs on the connection's own thread, never on an event loop and never on a pool shared with
/// other connections: a statement waiting for another connection's write lock (SQLite's busy
/// timeout sleeps in place) then holds up only its own connection, never the one it waits for.
/// As a `Service` it closes the connection when the application shuts down.
public final class SQLiteDatabase: Service, Sendable {
    let handle: SQLiteHandle
    /// The connection's own thread.
    package let thread: NIOThreadPool
    /// The SQLKit view of the connection.
    public let sql: any SQLDatabase
    /// The hashing threads' connections to the file (none for an in-memory database).
    let lanes: SQLiteLaneConnections?
    /// What every connection sets when it opens (WAL is the file's own, kept once set).
    static let connectionPragmas = ["PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = 5000", "PRAGMA synchronous = NORMAL"]

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private in-memory one.
    public init(path: String, logger: Logger) async throws {
        if path != ":memory:" {
            // Password hashes live here: owner-only from the first moment, and SQLite gives -wal
            // and -shm the same mode. A path that cannot be made fails in SQLite's open below.
            try? OwnerOnlyFile.createIfMissing(atPath: path)
        }
        thread = NIOThreadPool(numberOfThreads: 1)
        thread.start()
        do {
            handle = try await thread.runIfActive { try SQLiteHandle(path: path) }
        } catch {
            try? await thread.shutdownGracefully()
            throw error
        }
        // `GATEHOUSE_SQLITE_LANES=off`: every statement on the one connection, as before (a comparison).
        let lanesOff = ProcessInfo.processInfo.environment["GATEHOUSE_SQLITE_LANES"] == "off"
        lanes = path == ":memory:" || lanesOff ? nil : SQLiteLaneConnections(path: path)
        sql = SQLiteThreadDatabase(
            handle: handle, executor: SQLiteThreadExecutor(thread: thread), logger: logger, eventLoop: MultiThreadedEventLoopGroup.singleton.any(),
            lanes: lanes
        )
        do {
            for pragma in ["PRAGMA journal_mode = WAL"] + Self.connectionPragmas {
                try await sql.raw(SQLQueryString(pragma)).run()
            }
        } catch {
            // A file that is not a database fails here: closed, so the connection never outlives it.
            try? await close()
            throw error
        }
    }

    /// The kept statements SQLite compiled again, by text (``SQLiteHandle/recompilations``).
    package func recompilations() async throws -> [String: Int] {
        try await thread.runIfActive { [handle] in handle.recompilations }
    }

    /// Closes the connection and stops its thread.
    public func close() async throws {
        lanes?.close()
        try await thread.runIfActive { [handle] in handle.close() }
        try await thread.shutdownGracefully()
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }
}
