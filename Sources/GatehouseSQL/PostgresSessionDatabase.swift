import GatehouseCore
import Logging
import NIOCore
import PostgresKit
import SQLKit

/// PostgreSQL through the pools, with transactions that cannot hang on a connection the server
/// closed.
///
/// A transaction holds one connection for several statements. If PostgreSQL ends that
/// connection between two of them (a restart's "terminating connection"), PostgresNIO 1.33
/// writes the next statement to the closed channel without a promise, so the statement neither
/// answers nor fails and its caller waits for ever. ``OpenConnection`` checks the connection on
/// its own event loop immediately before each statement, in the same tick as the write, so a
/// closed one fails at once with ``PostgresConnectionLost`` (503) instead.
struct PostgresSessionDatabase: ForwardingSQLDatabase, @unchecked Sendable {
    /// The pools as PostgresNIO's database (each call leases a connection); not `Sendable`
    /// by declaration, but every call hops to the leased connection's event loop.
    let pool: any PostgresDatabase
    let plain: any SQLDatabase

    init(pool: any PostgresDatabase, queryLogLevel: Logger.Level?) {
        self.pool = pool
        plain = pool.sql(queryLogLevel: queryLogLevel)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let level = plain.queryLogLevel
        // The result crosses from the connection's event loop back to the caller, as in PostgresKit.
        return try await pool.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                SessionResult(value: try await closure(OpenConnection(connection: connection, queryLogLevel: level)))
            }
        }.get().value
    }
}

/// A session's result on its way back from the connection's event loop.
private struct SessionResult<Value>: @unchecked Sendable {
    let value: Value
}

/// One leased connection as SQLKit's database, refusing a statement once the connection closed.
struct OpenConnection: SQLDatabase, @unchecked Sendable {
    let connection: PostgresConnection
    let sql: any SQLDatabase

    init(connection: PostgresConnection, queryLogLevel: Logger.Level?) {
        self.connection = connection
        sql = connection.sql(queryLogLevel: queryLogLevel)
    }

    var logger: Logger { sql.logger }
    var eventLoop: any EventLoop { connection.eventLoop }
    var dialect: any SQLDialect { sql.dialect }
    var queryLogLevel: Logger.Level? { sql.queryLogLevel }

    /// Checks and writes in one event-loop tick: the channel cannot close in between.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let connection = connection, sql = sql
        return connection.eventLoop.flatSubmit {
            guard !connection.isClosed else { return connection.eventLoop.makeFailedFuture(PostgresConnectionLost()) }
            return sql.execute(sql: query, onRow)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// The server closed the connection a transaction was using; nothing of it was committed.
struct PostgresConnectionLost: Error, StorageFailure, CustomStringConvertible {
    var meansUnavailable: Bool { true }
    var description: String { "the PostgreSQL connection closed during a transaction" }
}
