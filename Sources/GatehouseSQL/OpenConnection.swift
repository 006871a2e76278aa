import GatehouseCore
import Logging
import NIOCore
import PostgresKit
import SQLKit

/// One leased connection as SQLKit's database, refusing a statement once the connection closed
/// and abandoning one that outlives its deadline.
struct OpenConnection: SQLDatabase, @unchecked Sendable {
    let connection: PostgresConnection
    let sql: any SQLDatabase
    /// The most one statement may take; `nil` for none.
    let deadline: TimeAmount?

    init(connection: PostgresConnection, queryLogLevel: Logger.Level?, deadline: TimeAmount?) {
        self.connection = connection
        sql = connection.sql(queryLogLevel: queryLogLevel)
        self.deadline = deadline
    }

    var logger: Logger { sql.logger }
    var eventLoop: any EventLoop { connection.eventLoop }
    var dialect: any SQLDialect { sql.dialect }
    var queryLogLevel: Logger.Level? { sql.queryLogLevel }

    /// Checks and writes in one event-loop tick, so the channel cannot close in between; past
    /// the deadline the statement fails and the connection is closed, so the pool drops it and
    /// nothing later runs on a connection whose state is unknown.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let connection = connection, sql = sql, deadline = deadline
        return connection.eventLoop.flatSubmit {
            guard !connection.isClosed else { return connection.eventLoop.makeFailedFuture(PostgresConnectionLost()) }
            let answer = sql.execute(sql: query, onRow)
            guard let deadline else { return answer }
            // Both complete on the connection's event loop; whichever is first wins, the other is ignored.
            let result = connection.eventLoop.makePromise(of: Void.self)
            let timer = connection.eventLoop.scheduleTask(in: deadline) {
                result.fail(PostgresStatementTimedOut())
                let closing: EventLoopFuture<Void> = connection.close()
                _ = closing
            }
            answer.whenComplete { outcome in
                timer.cancel()
                result.completeWith(outcome)
            }
            return result.futureResult
        }
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

/// A statement did not finish within its deadline and its connection was closed: a transaction
/// it was part of is rolled back by the server; a statement on its own may have taken effect,
/// as with any answer lost on the way.
package struct PostgresStatementTimedOut: Error, StorageFailure, CustomStringConvertible {
    package var meansUnavailable: Bool { true }
    package var description: String { "a PostgreSQL statement passed its deadline" }
}
