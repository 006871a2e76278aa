import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit

/// PostgresKit's connection pools, a few connections per event loop.
///
/// `EventLoopGroupConnectionPool` is safe to use from any thread (each event loop's pool is
/// confined to its loop and every call hops there) but is not marked `Sendable`; this box says so.
package final class PostgresPools: @unchecked Sendable {
    private let pools: EventLoopGroupConnectionPool<PostgresConnectionSource>
    /// The database requests use: every wait and statement within ``PostgresDeadlines``.
    package let sql: any SQLDatabase
    /// The same pools with no statement deadline, for migrations and housekeeping (a migration
    /// may rebuild a large table).
    package let patientSQL: any SQLDatabase

    package init(configuration: SQLPostgresConfiguration, logger: Logger, deadlines: PostgresDeadlines = PostgresDeadlines()) {
        var configuration = configuration
        configuration.coreConfiguration.options.connectTimeout = deadlines.connect
        pools = EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: 4, requestTimeout: deadlines.connectionWait, logger: logger,
            on: MultiThreadedEventLoopGroup.singleton
        )
        let database = pools.database(logger: logger)
        sql = PostgresSessionDatabase(pool: database, queryLogLevel: .trace, deadline: deadlines.statement)
        patientSQL = PostgresSessionDatabase(pool: database, queryLogLevel: .trace, deadline: nil)
    }

    /// Pools for a `postgres://` URL.
    package convenience init(url: String, logger: Logger, deadlines: PostgresDeadlines) throws {
        self.init(configuration: try SQLPostgresConfiguration(url: url), logger: logger, deadlines: deadlines)
    }

    package func shutdown() async throws {
        try await pools.shutdownAsync()
    }
}

/// How long a request may wait on PostgreSQL before it is answered 503 `server_busy` instead.
///
/// Together they keep a request's answer within about 5 s through a restart, a failover or a
/// server that stops answering (docs/deploy.md): a wait for a connection, then one statement,
/// each within its bound, and the first failure ends the request. The libraries' own defaults
/// (10 s each) let one request wait 20 s and more.
package struct PostgresDeadlines: Sendable {
    /// Waiting for a pooled connection: all busy, or a new one being opened.
    package var connectionWait: TimeAmount = .milliseconds(1500)
    /// Opening a connection: TCP, TLS, start-up and authentication.
    package var connect: TimeAmount = .milliseconds(1500)
    /// One statement, from its write to its last row. Statements here take milliseconds; one
    /// that takes seconds means the server or the network is in trouble.
    package var statement: TimeAmount? = .seconds(3)

    package init() {}
}
