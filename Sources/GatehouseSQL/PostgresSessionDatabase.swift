import GatehouseCore
import Logging
import NIOCore
import PostgresKit
import SQLKit

/// PostgreSQL through the pools, where no statement can hang on a connection the server closed
/// or stopped answering.
///
/// A transaction holds one connection for several statements. If PostgreSQL ends that
/// connection between two of them (a restart's "terminating connection"), PostgresNIO 1.33
/// writes the next statement to the closed channel without a promise, so the statement neither
/// answers nor fails and its caller waits for ever. ``OpenConnection`` checks the connection on
/// its own event loop immediately before each statement, in the same tick as the write, so a
/// closed one fails at once with ``PostgresConnectionLost`` (503) instead; and gives each
/// statement a deadline (``PostgresDeadlines``), past which it fails with
/// ``PostgresStatementTimedOut`` (503) and the connection is closed, whatever it was waiting for.
/// Single statements go through the same path on a connection of their own.
struct PostgresSessionDatabase: ForwardingSQLDatabase, @unchecked Sendable {
    /// The pools as PostgresNIO's database (each call leases a connection); not `Sendable`
    /// by declaration, but every call hops to the leased connection's event loop.
    let pool: any PostgresDatabase
    let plain: any SQLDatabase
    /// The most one statement may take; `nil` for none (migrations).
    let deadline: TimeAmount?

    init(pool: any PostgresDatabase, queryLogLevel: Logger.Level?, deadline: TimeAmount?) {
        self.pool = pool
        plain = pool.sql(queryLogLevel: queryLogLevel)
        self.deadline = deadline
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        pool.withConnection { open($0).execute(sql: query, onRow) }
    }

    /// Shadows ``ForwardingSQLDatabase``'s, which would send the statement past the checks.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        // The result crosses from the connection's event loop back to the caller, as in PostgresKit.
        try await pool.withConnection { connection in
            connection.eventLoop.makeFutureWithTask { SessionResult(value: try await closure(open(connection))) }
        }.get().value
    }

    /// A leased connection with this database's log level and deadline.
    private func open(_ connection: PostgresConnection) -> OpenConnection {
        OpenConnection(connection: connection, queryLogLevel: plain.queryLogLevel, deadline: deadline)
    }
}

/// A session's result on its way back from the connection's event loop.
private struct SessionResult<Value>: @unchecked Sendable {
    let value: Value
}
