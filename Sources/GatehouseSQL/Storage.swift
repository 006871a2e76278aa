import Foundation
import GatehouseCore
import Logging
import PostgresKit
import SQLKit
import ServiceLifecycle

/// An open database and the repository over it: the one place that knows which engine it is.
///
/// As a `Service` it closes the database when the application shuts down; outside an
/// application call ``close()``.
public struct Storage: Service {
    public let repository: SQLRepository
    public let location: DatabaseLocation
    /// Other processes' session changes, for ``SQLRepository/liveness`` (a service to run).
    public let changeFeed: SessionChangeFeed
    private let closer: @Sendable () async throws -> Void

    /// Opens (for SQLite, creating) the database; does not migrate it.
    public static func open(_ location: DatabaseLocation, logger: Logger) async throws -> Storage {
        switch location {
        case .sqlite(let path):
            let database = try await SQLiteDatabase(path: path, logger: logger)
            let repository = SQLRepository(database: database.sql)
            return Storage(
                repository: repository, location: location,
                changeFeed: SessionChangeFeed(repository: repository, postgres: nil, logger: logger), closer: database.close
            )
        case .postgres(let url):
            let configuration = try SQLPostgresConfiguration(url: url)
            let pools = PostgresPools(configuration: configuration, logger: logger)
            let repository = SQLRepository(database: pools.sql, sharedConnection: false, patientDatabase: pools.patientSQL)
            let feed = SessionChangeFeed(repository: repository, postgres: configuration.coreConfiguration, logger: logger)
            return Storage(repository: repository, location: location, changeFeed: feed) { try await pools.shutdown() }
        }
    }

    /// Opens the database, runs `body` and closes the database, whatever `body` does.
    public static func with<T>(_ location: DatabaseLocation, logger: Logger, _ body: (Storage) async throws -> T) async throws -> T {
        let storage = try await open(location, logger: logger)
        do {
            let result = try await body(storage)
            try await storage.close()
            return result
        } catch {
            try? await storage.close()
            throw error
        }
    }

    public func close() async throws {
        try await closer()
    }

    /// Runs one statement that takes no input, for operators' and tests' housekeeping
    /// (`CREATE DATABASE`, `VACUUM`); never for anything built from request data.
    public func execute(_ statement: String) async throws {
        try await (repository.patientDatabase ?? repository.database).raw(SQLQueryString(statement)).run()
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }
}
