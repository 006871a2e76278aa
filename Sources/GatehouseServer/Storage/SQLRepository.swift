import Foundation
import SQLKit

/// The repositories over any SQLKit database (SQLite now, PostgreSQL later).
///
/// Times are stored as whole milliseconds since 1970 in BIGINT columns, which both engines
/// store exactly. A write that must not race is one conditional statement; writes that span
/// several statements run in ``transaction(_:)``.
public struct SQLRepository: Sendable {
    let database: any SQLDatabase
    /// Serialises writes when every statement shares one connection (SQLite), so no statement
    /// of another request runs inside, or is rolled back with, someone else's transaction.
    let gate: WriteGate?

    /// Creates a repository.
    /// - Parameters:
    ///   - database: the SQLKit database to use.
    ///   - sharedConnection: whether every statement goes over one connection (SQLite).
    public init(database: any SQLDatabase, sharedConnection: Bool = true) {
        self.database = database
        gate = sharedConnection ? WriteGate() : nil
    }

    /// Creates or upgrades the schema; safe to run on every start.
    public func migrate() async throws {
        try await SchemaMigrations(repository: self).run()
    }

    /// Fails with ``RepositoryError/schemaOutOfDate`` unless every migration has been applied.
    public func requireCurrentSchema() async throws {
        let applied = (try? await SchemaMigrations.version(in: database)) ?? nil
        let expected = SchemaMigrations(repository: self).steps.count
        guard applied == expected else { throw RepositoryError.schemaOutOfDate(applied: applied ?? 0, expected: expected) }
    }

    /// Runs `body` in one transaction: all of it is written, or none.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
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

    /// Runs one write, never inside another request's transaction.
    func write<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        guard let gate else { return try await body() }
        await gate.lock()
        do {
            let result = try await body()
            await gate.unlock()
            return result
        } catch {
            await gate.unlock()
            throw error
        }
    }
}

/// A first-come, first-served async lock.
actor WriteGate {
    private var locked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func lock() async {
        guard locked else {
            locked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func unlock() {
        if waiters.isEmpty { locked = false } else { waiters.removeFirst().resume() }
    }
}

extension Date {
    var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    init(milliseconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }
}
