import CSQLiteSettings
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import SQLiteKit
// SQLiteNIO's own build of SQLite (its symbols prefixed `sqlite_nio_`), so the process links one.
import VaporCSQLite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SQLite connection that runs each statement where it is called, prepared once.
///
/// SQLiteNIO runs every statement as a job on its thread pool, hands each row to an event loop
/// and completes on the event loop: two thread hops per statement even for a caller already on
/// the connection's thread, and SQLite compiled the statement again each time (as long as it
/// took to run it). Here a statement runs synchronously on the connection's own thread, which
/// is the only thread that ever touches this object after opening, and its compiled form is
/// kept for the next call with the same text.
///
/// Not thread-safe by design: ``SQLiteThreadDatabase`` calls the shared connection only on
/// ``owner``'s thread; a hashing thread's connection (``SQLiteLaneConnections``) is used by one
/// caller at a time, which its lanes ensure, so it is not confined to a thread.
final class SQLiteHandle: @unchecked Sendable {
    /// Compiled statements kept at most; past this the cache starts again (text built per call,
    /// such as a list of placeholders, would otherwise grow it without end).
    static let cacheLimit = 256
    private static let initialized = NIOLockedValueBox(false)
    /// SQLite copies bound text and blobs before the bind call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private var raw: OpaquePointer?
    /// The thread that opened the connection: the pool's one thread.
    private let owner: pthread_t
    /// Whether only ``owner``'s thread may run statements.
    private let confined: Bool
    /// Compiled statements by their text.
    private var cache: [String: OpaquePointer] = [:]

    /// Opens (creating if needed) the file at `path`, or a private in-memory database for
    /// `":memory:"`; call on the connection's thread.
    init(path: String, confined: Bool = true) throws {
        Self.initialized.withLockedValue { done in
            if !done { sqlite_nio_sqlite3_initialize() }
            done = true
        }
        var raw: OpaquePointer?
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE
        let opened = sqlite_nio_sqlite3_open_v2(path, &raw, flags, nil)
        guard opened == SQLITE_OK, let raw else {
            let failure = SQLiteFailure(code: opened, message: raw.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "cannot open")
            sqlite_nio_sqlite3_close(raw)
            throw failure
        }
        // Plans that depend on a bound value would be compiled again at every run with new binds
        // (`WHERE user_id = ?1 ORDER BY created_at` is one: the planner compares the parameter
        // with the sort), which costs as much as keeping nothing.
        let planned = gatehouse_sqlite_plan_by_text_only(raw)
        guard planned == SQLITE_OK else {
            let failure = Self.failure(planned, on: raw)
            sqlite_nio_sqlite3_close(raw)
            throw failure
        }
        self.raw = raw
        owner = pthread_self()
        self.confined = confined
    }

    /// Whether the caller runs on the connection's thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), owner) != 0 }

    /// Runs `sql` with `binds`, handing each result row to `onRow` as it is read.
    func run(_ sql: String, _ binds: [SQLiteData], decoder: SQLiteDataDecoder, _ onRow: (any SQLRow) -> Void) throws {
        precondition(!confined || isCurrent, "an SQLite statement off its connection's thread")
        guard let raw else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed") }
        guard let statement = try prepared(sql, on: raw) else { return }  // only a comment, or nothing
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), of: statement), on: raw)
        }
        // Read at each run's first row, not kept with the statement: SQLite compiles a kept
        // statement again when the schema changed, and `SELECT *` then names other columns.
        var columns: [String]?
        while true {
            let stepped = sqlite_nio_sqlite3_step(statement)
            if stepped == SQLITE_DONE { return }
            guard stepped == SQLITE_ROW else { throw Self.failure(stepped, on: raw) }
            let names = columns ?? (0..<sqlite_nio_sqlite3_column_count(statement)).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }
            columns = names
            let values = (0..<Int32(names.count)).map { value(at: $0, of: statement) }
            onRow(SQLiteThreadRow(columns: names, values: values, decoder: decoder))
        }
    }

    /// The text of each kept statement SQLite compiled again since it was kept, and how often.
    ///
    /// A kept statement is compiled again after a schema change (or a PRAGMA that changes how
    /// statements compile, as the migrations' `foreign_keys`). Without the planner's stability
    /// guarantee set at opening, one whose plan could depend on a bound value was compiled again
    /// at every run with new binds, as costly as keeping nothing (``SQLiteStatementCacheTests``).
    var recompilations: [String: Int] {
        precondition(isCurrent, "an SQLite statement off its connection's thread")
        return cache.reduce(into: [:]) { found, kept in
            let count = sqlite_nio_sqlite3_stmt_status(kept.value, SQLITE_STMTSTATUS_REPREPARE, 0)
            if count > 0 { found[kept.key] = Int(count) }
        }
    }

    /// Finalises every kept statement and closes the connection; call on its thread.
    func close() {
        for statement in cache.values { sqlite_nio_sqlite3_finalize(statement) }
        cache = [:]
        sqlite_nio_sqlite3_close_v2(raw)
        raw = nil
    }

    private func prepared(_ sql: String, on raw: OpaquePointer) throws -> OpaquePointer? {
        if let kept = cache[sql] { return kept }
        var statement: OpaquePointer?
        let compiled = sqlite_nio_sqlite3_prepare_v3(raw, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard compiled == SQLITE_OK else { throw Self.failure(compiled, on: raw) }
        guard let statement else { return nil }
        if cache.count >= Self.cacheLimit {
            for kept in cache.values { sqlite_nio_sqlite3_finalize(kept) }
            cache = [:]
        }
        cache[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteData, at index: Int32, of statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let float):
            sqlite_nio_sqlite3_bind_double(statement, index, float)
        case .text(let text):
            sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .blob(let blob):
            blob.withUnsafeReadableBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
            }
        case .null:
            sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func value(at column: Int32, of statement: OpaquePointer) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            let text = sqlite_nio_sqlite3_column_text(statement, column)
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: text == nil ? 0 : count), as: UTF8.self))
        case SQLITE_BLOB:
            let blob = sqlite_nio_sqlite3_column_blob(statement, column)
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .blob(ByteBuffer(bytes: UnsafeRawBufferPointer(start: blob, count: blob == nil ? 0 : count)))
        default:
            return .null
        }
    }

    private func check(_ code: Int32, on raw: OpaquePointer) throws {
        guard code == SQLITE_OK else { throw Self.failure(code, on: raw) }
    }

    private static func failure(_ code: Int32, on raw: OpaquePointer) -> SQLiteFailure {
        SQLiteFailure(code: code, message: String(cString: sqlite_nio_sqlite3_errmsg(raw)))
    }
}
