import ArgumentParser
import GatehouseSQL
import Logging

/// `gatehouse migrate`: brings the schema up to date, once, for a deploy step.
///
/// Safe to run while servers run and from several machines at once: PostgreSQL migrates under
/// an advisory lock, SQLite in `BEGIN IMMEDIATE` transactions, and each step only once.
public struct MigrateCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Create or upgrade the database schema.")

    public init() {}

    @OptionGroup var storage: DatabaseOptions

    public func run() async throws {
        let location = try storage.location()
        try await Storage.with(location, logger: Logger(label: "gatehouse")) { storage in
            try await storage.repository.migrate()
            try await storage.repository.requireCurrentSchema()
        }
        print("Migrated \(location)")
    }
}
