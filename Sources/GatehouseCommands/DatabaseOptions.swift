import ArgumentParser
import GatehouseServer
import Logging

/// The `--database` option every command that touches accounts shares.
public struct DatabaseOptions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: "The SQLite database file.")
    public var database: String = "gatehouse.sqlite"

    public func validate() throws {
        if database.isEmpty { throw ValidationError("--database must not be empty") }
    }

    /// Opens the database, migrates it, runs `body` with an administration over it, and closes it.
    public func withAdministration<T>(_ body: (UserAdministration) async throws -> T) async throws -> T {
        let database = try await SQLiteDatabase(path: database, logger: Logger(label: "gatehouse"))
        let repository = SQLRepository(database: database.sql)
        do {
            try await repository.migrate()
            let result = try await body(UserAdministration(repository: repository))
            try await database.close()
            return result
        } catch {
            try? await database.close()
            throw error
        }
    }
}
