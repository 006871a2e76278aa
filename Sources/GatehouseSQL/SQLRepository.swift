import Foundation
import GatehouseCore
import NIOConcurrencyHelpers
import SQLKit

/// The repositories over any SQLKit database (SQLite now, PostgreSQL later).
///
/// Times are stored as whole milliseconds since 1970 in BIGINT columns, which both engines
/// store exactly. A write that must not race is one conditional statement; writes that span
/// several statements run in ``transaction(_:)``.
public struct SQLRepository: StorageAffinity {
    package let database: any SQLDatabase
    /// Serialises writes when every statement shares one connection (SQLite), so no statement
    /// of another request runs inside, or is rolled back with, someone else's transaction.
    package let gate: WriteGate?
    /// The sessions this process knows to be live; this repository's own writes that end a
    /// session or change a user empty that user's entries (see ``changing(user:_:)``).
    public let liveness: LiveSessionCache
    /// The connection's own thread, when every statement runs on one (SQLite).
    let connectionThread: (any TaskExecutor)?
    /// The same database for migrations and housekeeping, which may take long, when it differs
    /// from ``database`` (PostgreSQL's has no statement deadline).
    package let patientDatabase: (any SQLDatabase)?

    /// Creates a repository.
    /// - Parameters:
    ///   - database: the SQLKit database to use.
    ///   - sharedConnection: whether every statement goes over one connection (SQLite).
    ///   - liveness: the live-session cache; by default one that serves at once (SQLite,
    ///     where this process makes every change that matters but the CLI's, which
    ///     ``SessionChangeFeed`` brings in), or for PostgreSQL one that waits for the feed.
    ///   - patientDatabase: the same database for migrations and housekeeping, when they need
    ///     other limits.
    public init(
        database: any SQLDatabase, sharedConnection: Bool = true, liveness: LiveSessionCache? = nil,
        patientDatabase: (any SQLDatabase)? = nil
    ) {
        self.database = database
        self.patientDatabase = patientDatabase
        gate = sharedConnection ? WriteGate() : nil
        connectionThread = (database as? SQLiteThreadDatabase)?.executor
        self.liveness = liveness ?? (
            sharedConnection ? LiveSessionCache(live: true) : LiveSessionCache(live: false, heartbeatWindow: SessionChangeFeed.heartbeatWindow)
        )
    }

    /// Creates or upgrades the schema; safe to run on every start.
    public func migrate() async throws {
        let repository = patientDatabase.map { SQLRepository(database: $0, sharedConnection: gate != nil, liveness: liveness) } ?? self
        try await SchemaMigrations(repository: repository).run()
    }

    /// Fails with ``RepositoryError/schemaOutOfDate`` unless every migration has been applied.
    public func requireCurrentSchema() async throws {
        let applied = (try? await SchemaMigrations.version(in: database)) ?? nil
        let expected = SchemaMigrations(repository: self).steps.count
        guard applied == expected else { throw RepositoryError.schemaOutOfDate(applied: applied ?? 0, expected: expected) }
    }

    /// Runs `body` in one transaction: all of it is written, or none.
    package func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await write {
            try await database.withSession { session in
                try await session.raw(database.dialect.name == "sqlite" ? "BEGIN IMMEDIATE" : "BEGIN").run()
                do {
                    let result = try await body(session)
                    try await session.raw("COMMIT").run()
                    return result
                } catch {
                    try? await session.raw("ROLLBACK").run()
                    throw error
                }
            }
        }
    }

    /// Whether the hashing threads have connections of their own (an SQLite file).
    public var runsBesideHashing: Bool { (database as? SQLiteThreadDatabase)?.lanes != nil }

    /// How many hashing threads have opened a connection of their own (tests).
    package var hashingThreadConnections: Int { (database as? SQLiteThreadDatabase)?.lanes?.count ?? 0 }

    /// Runs `work` on the connection's thread (SQLite), so its statements cost no thread hops.
    public func nearStorage<T>(_ work: () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(connectionThread, operation: work)
    }

    /// Runs a write that ends a user's sessions or changes what requests see of the user, then
    /// empties that user's entries in ``liveness``: after the commit, so no read can keep the
    /// state from before it (``LiveSessionCache/keep(_:readAt:)``).
    package func changing<T: Sendable>(user userID: String, _ body: () async throws -> T) async throws -> T {
        defer { liveness.invalidate(userID: userID) }
        return try await body()
    }

    /// Runs one write, never inside another request's transaction.
    package func write<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let gate else { return try await body() }
        await gate.lock()
        do {
            let result = try await body()
            gate.unlock()
            return result
        } catch {
            gate.unlock()
            throw error
        }
    }
}

/// A first-come, first-served async lock.
///
/// A mutex, not an actor: taking a free gate never suspends, so a write costs no executor hop.
package final class WriteGate: Sendable {
    private struct State {
        package var locked = false
        package var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    package func lock() async {
        let free = state.withLockedValue { state in
            if state.locked { return false }
            state.locked = true
            return true
        }
        if free { return }
        await withCheckedContinuation { waiter in
            let acquired = state.withLockedValue { state in
                if !state.locked {
                    state.locked = true
                    return true
                }
                state.waiters.append(waiter)
                return false
            }
            if acquired { waiter.resume() }
        }
    }

    package func unlock() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.locked = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

extension Date {
    package var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    package init(milliseconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }
}
