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
    ///
    /// Every change is audited as done by `cli:<login name>`, written before the database closes
    /// (whether `body` succeeded or not: a change made before a later failure is still recorded).
    /// New passwords pass the same policy as at sign-up (length, the common list) unless
    /// `weakPasswords` says the operator chose otherwise (`--allow-weak-password`, the demo account).
    public func withAdministration<T>(weakPasswords: Bool = false, _ body: (UserAdministration) async throws -> T) async throws -> T {
        try await withStorage { storage in
            let audit = AuditLog(repository: storage.repository, logger: Logger(label: "gatehouse"))
            let admin = UserAdministration(
                repository: storage.repository, numbers: LibPhoneNumber(), events: audit, actor: Self.actor,
                passwordPolicy: weakPasswords ? nil : PasswordPolicy()
            )
            do {
                let result = try await body(admin)
                try await audit.flush()
                return result
            } catch {
                try? await audit.flush()
                throw error
            }
        }
    }

    /// Opens the database, migrates it, runs `body` with it, and closes it.
    public func withStorage<T>(_ body: (Storage) async throws -> T) async throws -> T {
        try await Storage.with(try location(), logger: Logger(label: "gatehouse")) { storage in
            try await storage.repository.migrate()
            return try await body(storage)
        }
    }

    /// Who the audit log says ran a command: `cli:` and the login name.
    static var actor: AuditActor {
        let environment = ProcessInfo.processInfo.environment
        let name = environment["USER"] ?? environment["LOGNAME"] ?? getpwuid(geteuid()).flatMap { String(validatingCString: $0.pointee.pw_name) } ?? "unknown"
        return .cli(login: name)
    }
}
