import GatehouseCore
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// The SQLite connection as SQLKit's database: every statement runs on the connection's own
/// thread, where it is called if the caller is there already.
///
/// A statement called from anywhere else costs two thread hops: the caller's task waits while
/// the thread runs the statement, then is woken on another thread. ``withSession(_:)`` runs
/// its whole closure with the connection's thread as its task executor, so the statements
/// inside run one after another right there: a transaction of five statements costs two hops
/// in all, and none of its statements waits for another thread (``SQLiteHandle``).
struct SQLiteThreadDatabase: SQLDatabase {
    let handle: SQLiteHandle
    let executor: SQLiteThreadExecutor
    let logger: Logger
    let eventLoop: any EventLoop
    /// The hashing threads' own connections to the same file, if it is one.
    let lanes: SQLiteLaneConnections?
    /// Inside a session begun on a hashing thread: that thread's connection, held for the
    /// session, so every statement of it runs there, whichever thread it runs on.
    var pinned: SQLiteHandle?
    let encoder = SQLiteDataEncoder()
    let decoder = SQLiteDataDecoder()

    var version: (any SQLDatabaseReportedVersion)? { nil }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { .debug }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, rawBinds) = serialize(query)
        if let queryLogLevel {
            // The text only: binds carry password hashes, codes and tokens.
            logger.log(level: queryLogLevel, "Executing query", metadata: ["sql": .string(sql)])
        }
        let binds = try rawBinds.map(sqliteData)
        if let pinned { return try pinned.run(sql, binds, decoder: decoder, onRow) }
        if handle.isCurrent { return try handle.run(sql, binds, decoder: decoder, onRow) }
        if let lane = lanes?.current() { return try lane.run(sql, binds, decoder: decoder, onRow) }
        try await executor.thread.runIfActive { try handle.run(sql, binds, decoder: decoder, onRow) }
    }

    /// A bind as SQLite's value: text and integers directly, anything else as SQLiteKit's
    /// encoder makes it.
    ///
    /// The encoder first asks whether the value converts itself (a cast to a protocol, which
    /// looks the conformance up: about 1,200 instructions, for each of the 60 binds of a passkey
    /// sign-in); a cast to a concrete type only compares the type. The values are the ones the
    /// encoder would make: `.text` for a `String`, `.integer` for an `Int` or `Int64`.
    func sqliteData(_ bind: any Encodable & Sendable) throws -> SQLiteData {
        switch bind {
        case let text as String: .text(text)
        case let number as Int: .integer(number)
        case let number as Int64: .integer(Int(number))
        default: try encoder.encode(bind)
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        if pinned != nil { return try await closure(self) }
        // On a hashing thread with its own connection: the session's statements run on it.
        if let lane = lanes?.take() {
            defer { lanes?.release(lane) }
            var session = self
            session.pinned = lane
            return try await closure(session)
        }
        return try await withTaskExecutorPreference(executor) { try await closure(self) }
    }
}

/// The connection's one thread as a task executor: jobs queue behind its statements, in order.
///
/// A job submitted once the thread has stopped runs where it was submitted, so no task is lost
/// at shutdown (its next statement then fails: the pool is no longer active).
final class SQLiteThreadExecutor: TaskExecutor {
    let thread: NIOThreadPool

    init(thread: NIOThreadPool) {
        self.thread = thread
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        thread.submit { _ in job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
