import Foundation
import GatehouseCore
import GatehouseDelivery
import GatehouseHTTP
import GatehousePhoneNumbers
import GatehouseSQL
import GatehouseServer
import GatehouseTestSupport
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit

/// A fresh SQLite file in a temporary folder, seeded with seed 000's demo account.
struct Fixture {
    static let email = "user@example.com"
    static let password = "password123"
    static let name = "Demo User"

    /// The hashing limits of every fixture: a queue deep enough for all parallel tests.
    static let hashing = HashingLimits.tests

    let directory: URL
    let clock = TestClock()
    /// An SQLite file in ``directory``, or a fresh PostgreSQL database (``TestDatabase``).
    let databasePath: String
    /// Set on PostgreSQL, which has no file to keep one in; `nil` on SQLite.
    var keyEncryptionKey: String? { TestDatabase.keyEncryptionKey }

    /// The cost of every hash this fixture makes: OWASP's by default. Suites that send hundreds
    /// of sign-ins to test the limiter use ``cheap``, so the parallel test process is not
    /// starved of hashing threads; what they test is counting, not cost.
    let argon2: Argon2Parameters

    /// Real argon2id, at 1 MiB and one pass.
    static let cheap = Argon2Parameters(memoryKiB: 1024, iterations: 1, parallelism: 1)

    init(argon2: Argon2Parameters = .owasp) async throws {
        self.argon2 = argon2
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databasePath = try await TestDatabase.make(sqliteFolder: directory, migrated: true)
        try await withAdministration { try await $0.create(email: Self.email, name: Self.name, password: Self.password) }
    }

    var configuration: GatehouseConfiguration {
        var configuration = GatehouseConfiguration()
        configuration.databasePath = databasePath
        configuration.keyEncryptionKey = keyEncryptionKey
        configuration.port = 0
        configuration.logRequests = false
        // Tests run in parallel on one process's hashing threads: never refuse for load here.
        configuration.hashing = Self.hashing
        configuration.argon2 = argon2
        let clock = clock
        configuration.clock = { clock.now }
        return configuration
    }

    /// Runs `body` with an administration over a second connection to the same file, as the
    /// CLI would while the server runs.
    @discardableResult
    func withAdministration<T>(_ body: (UserAdministration) async throws -> T) async throws -> T {
        let clock = clock, argon2 = argon2
        return try await Storage.with(try DatabaseLocation(databasePath), logger: Logger(label: "test")) { storage in
            try await storage.repository.migrate()
            let hasher = PasswordHasher(parameters: argon2, limits: Self.hashing)
            return try await body(UserAdministration(repository: storage.repository, numbers: LibPhoneNumber(), hasher: hasher, clock: { clock.now }, passwordPolicy: nil))
        }
    }

    /// Builds the real application on this fixture's file and runs `test` against its router.
    ///
    /// `.router` calls the router directly (no socket, so no client address); `.live` runs the
    /// server on a loopback port, where requests come from 127.0.0.1.
    func test<Value>(
        _ configure: (inout GatehouseConfiguration) -> Void = { _ in },
        logger: Logger = Logger(label: "test"),
        mode: TestingSetup = .router,
        _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        var configuration = configuration
        configure(&configuration)
        let app = try await buildApplication(configuration, logger: logger)
        return try await app.test(mode, test)
    }

    /// The audit rows' text once every one of `types` is in it (``waitUntil(_:)``): the log
    /// writes off the request path, and rests ``AuditLog/pause`` after each write.
    func storedAudit(containing types: [String]) async throws -> String {
        var text = ""
        try await waitUntil {
            text = try await storedText(["audit_events"])
            return types.allSatisfy(text.contains)
        }
        return text
    }

    /// Every text value stored in `tables`, joined: what an attacker with a copy of the
    /// database would read, on either engine.
    func storedText(_ tables: [String] = ["users", "identities", "password_credentials", "sessions", "refresh_tokens", "web_sessions", "signing_keys", "server_secrets", "throttles"]) async throws -> String {
        try await Storage.with(try DatabaseLocation(databasePath), logger: Logger(label: "test")) { storage in
            var text = ""
            for table in tables {
                for row in try await storage.repository.database.select().column("*").from(table).all() {
                    for column in row.allColumns {
                        if let value = try? row.decode(column: column, as: String?.self) { text += value + "\n" }
                    }
                }
            }
            return text
        }
    }
}
