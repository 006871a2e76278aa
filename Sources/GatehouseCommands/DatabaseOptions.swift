import ArgumentParser
import Foundation
import GatehouseCore
import GatehousePhoneNumbers
import GatehouseSQL
import Logging

/// The `--database` option every command that touches accounts shares.
public struct DatabaseOptions: ParsableArguments {
    public init() {}

    @Option(
        name: .long,
        help: "An SQLite file (or sqlite:PATH), or postgres://user:password@host:port/database; default $GATEHOUSE_DATABASE_URL, else gatehouse.sqlite."
    )
    public var database: String = ProcessInfo.processInfo.environment["GATEHOUSE_DATABASE_URL"] ?? "gatehouse.sqlite"

    public func validate() throws {
        _ = try location()
    }

    /// The parsed location; a bad value is a one-line usage error.
    public func location() throws -> DatabaseLocation {
        do {
            return try DatabaseLocation(database)
        } catch {
            throw ValidationError("--database: \(error)")
        }
    }

    /// Opens the database, migrates it, runs `body` with an administration over it, and closes it.
    public func withAdministration<T>(_ body: (UserAdministration) async throws -> T) async throws -> T {
        try await Storage.with(try location(), logger: Logger(label: "gatehouse")) { storage in
            try await storage.repository.migrate()
            return try await body(UserAdministration(repository: storage.repository, numbers: LibPhoneNumber()))
        }
    }
}
