import Foundation
import GatehouseCore
import NIOConcurrencyHelpers
import SQLiteKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SQLite file's connections on the hashing threads: one each, opened there on its first
/// statement, so a sign-in running wholly on a hashing thread runs its statements in place.
///
/// A password sign-in on the shared connection's thread paid four thread wake-ups around its
/// hash (to the connection's thread, to a hashing thread, back, and out), and both
/// connections' sign-ins queued on that one thread. On a hashing thread's own connection it
/// runs from its limits to its session's commit without leaving the thread, as a thread per
/// request would. SQLite in WAL mode lets each connection read while another writes; writes
/// still go one at a time through ``SQLRepository/write(_:)``'s gate, whichever connection
/// makes them, so no connection waits on another's write lock. Only a file has these: an
/// in-memory database is private to its one connection.
///
/// A session (a transaction) takes its thread's connection for its whole length
/// (``take()``), and its statements run on that connection wherever the session's task runs
/// next: a body that suspended and went on on another hashing thread still runs inside its
/// transaction, and meanwhile its first thread, finding its connection taken, sends its own
/// statements to the shared connection. So no connection is ever used by two callers at once.
final class SQLiteLaneConnections: @unchecked Sendable {
    private let path: String
    private let lock = NIOLock()
    private var handles: [UInt: SQLiteHandle] = [:]
    /// The connections a session holds.
    private var taken: Set<ObjectIdentifier> = []
    private var closed = false

    init(path: String) {
        self.path = path
    }

    /// The calling hashing thread's connection for one statement, opened now if it has none;
    /// `nil` off the hashing threads, while a session holds it, or once closed.
    func current() -> SQLiteHandle? {
        connection(taking: false)
    }

    /// The calling hashing thread's connection, held for a session until ``release(_:)``;
    /// `nil` as for ``current()``.
    func take() -> SQLiteHandle? {
        connection(taking: true)
    }

    /// Gives back a connection ``take()`` gave.
    func release(_ handle: SQLiteHandle) {
        _ = lock.withLock { taken.remove(ObjectIdentifier(handle)) }
    }

    private func connection(taking: Bool) -> SQLiteHandle? {
        guard HashingPool.onHashingThread else { return nil }
        let thread = Self.threadKey
        enum Found { case free(SQLiteHandle), unavailable, none }
        let found = lock.withLock { () -> Found in
            if closed { return .unavailable }
            guard let handle = handles[thread] else { return .none }
            guard !taken.contains(ObjectIdentifier(handle)) else { return .unavailable }
            if taking { taken.insert(ObjectIdentifier(handle)) }
            return .free(handle)
        }
        switch found {
        case .free(let handle): return handle
        case .unavailable: return nil
        case .none: break
        }
        // A connection that cannot open (no file descriptor left) sends the statements to the
        // shared connection: a sign-in never fails for want of its own.
        guard let handle = try? SQLiteHandle(path: path, confined: false) else { return nil }
        do {
            for pragma in SQLiteDatabase.connectionPragmas {
                try handle.run(pragma, [], decoder: SQLiteDataDecoder()) { _ in }
            }
        } catch {
            handle.close()
            return nil
        }
        let kept = lock.withLock { () -> Bool in
            guard !closed else { return false }
            handles[thread] = handle
            if taking { taken.insert(ObjectIdentifier(handle)) }
            return true
        }
        guard kept else {
            handle.close()
            return nil
        }
        return handle
    }

    #if canImport(Glibc)
    private static var threadKey: UInt { UInt(pthread_self()) }
    #else
    private static var threadKey: UInt { UInt(bitPattern: pthread_self()) }
    #endif

    /// How many hashing threads have a connection open.
    var count: Int { lock.withLock { handles.count } }

    /// Closes every connection; statements on the hashing threads then go to the shared one.
    func close() {
        let open = lock.withLock { () -> [SQLiteHandle] in
            closed = true
            defer {
                handles = [:]
                taken = []
            }
            return Array(handles.values)
        }
        for handle in open { handle.close() }
    }
}
