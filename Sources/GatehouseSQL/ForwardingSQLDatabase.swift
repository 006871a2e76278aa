import Logging
import NIOCore
import SQLKit

/// An SQLKit database that runs statements through another and changes only its sessions.
///
/// ``PostgresSessionDatabase`` differs from PostgresKit's database in its sessions and its
/// statements (both `execute`s, each of which must then be its own). Everything else is
/// forwarded here.
protocol ForwardingSQLDatabase: SQLDatabase {
    /// The engine's own database, which runs every statement.
    var plain: any SQLDatabase { get }
}

extension ForwardingSQLDatabase {
    var logger: Logger { plain.logger }
    var eventLoop: any EventLoop { plain.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { plain.version }
    var dialect: any SQLDialect { plain.dialect }
    var queryLogLevel: Logger.Level? { plain.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        plain.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await plain.execute(sql: query, onRow)
    }
}
