import GatehouseCore
import Logging
import PostgresKit
import ServiceLifecycle

/// Brings session changes made by other processes into this one's ``LiveSessionCache``.
///
/// On PostgreSQL it listens on a connection of its own for the triggers' notifications
/// (``SchemaMigrations/sessionChanges``), so every instance forgets a revoked session as soon
/// as the revoking transaction commits; while that connection is down the cache is suspended
/// and every request reads the database, until the listener is back. A connection can also
/// stall without closing (a NAT or a proxy that drops it silently): the listener sends itself a
/// heartbeat through the channel every second, from the pool, and a cache that has not heard
/// one for ``heartbeatWindow`` serves nothing while the listener reconnects; the connection
/// also has TCP keepalive. On SQLite, where only
/// the CLI writes beside the server, it polls the change table a few times a second.
public struct SessionChangeFeed: Service {
    package let repository: SQLRepository
    /// The listener's connection settings; `nil` on SQLite.
    package let postgres: PostgresConnection.Configuration?
    package let logger: Logger
    /// How often SQLite's change table is read.
    package var pollInterval: Duration = .milliseconds(100)
    /// How often the PostgreSQL listener sends itself a heartbeat through the channel.
    package var heartbeatInterval: Duration = .seconds(1)
    /// How long PostgreSQL's cache serves entries after the last heartbeat came back: past it,
    /// the listener is taken for stalled, the cache serves nothing and the listener reconnects.
    package static let heartbeatWindow: Duration = .seconds(3)

    package init(repository: SQLRepository, postgres: PostgresConnection.Configuration?, logger: Logger) {
        self.repository = repository
        self.postgres = postgres
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            if let postgres { await listen(postgres) } else { await poll() }
        }
    }
}
