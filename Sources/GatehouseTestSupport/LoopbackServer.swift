import Foundation
import GatehouseCore
import GatehousePhoneNumbers
import GatehouseSQL
import GatehouseServer
import Hummingbird
import Logging
import ServiceLifecycle

/// The real Gatehouse application on a loopback port with a fresh SQLite file, for tests and
/// the benchmark. It runs in a `ServiceGroup` and stops gracefully.
public final class LoopbackServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    public let url: URL
    public let port: Int
    /// The SQLite file, in a temporary folder of its own.
    public let databasePath: String
    let group: ServiceGroup
    let running: Task<Void, any Error>

    /// Creates a fresh database with `users` (email, name, password) and starts the server.
    /// - Parameters:
    ///   - users: accounts to create first.
    ///   - port: the port, or 0 for a free one.
    ///   - databasePath: reuse this database instead of a new one (for restarts).
    ///   - configure: changes to the server configuration (clock, lifetimes, grace).
    public static func start(
        users: [(email: String, name: String, password: String)] = [],
        port: Int = 0,
        databasePath: String? = nil,
        configure: @Sendable (inout GatehouseConfiguration) -> Void = { _ in }
    ) async throws -> LoopbackServer {
        var logger = Logger(label: "loopback")
        logger.logLevel = .warning
        let path = try databasePath ?? Self.temporaryDatabase()
        var configuration = GatehouseConfiguration()
        configuration.databasePath = path
        configuration.port = port
        configuration.logRequests = false
        configuration.hashing = .tests
        configuration.keyEncryptionKey = TestDatabase.keyEncryptionKey
        configure(&configuration)
        if !users.isEmpty {
            let clock = configuration.clock
            try await Storage.with(try DatabaseLocation(path), logger: logger) { storage in
                try await storage.repository.migrate()
                let admin = UserAdministration(repository: storage.repository, numbers: LibPhoneNumber(), hasher: PasswordHasher(limits: .tests), clock: clock, passwordPolicy: nil)
                for user in users { try await admin.create(email: user.email, name: user.name, password: user.password) }
            }
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(configuration, logger: logger) { continuation.yield($0) }
        let group = ServiceGroup(services: [app], logger: logger)
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else { throw CancellationError() }
        return LoopbackServer(
            url: URL(string: "http://127.0.0.1:\(bound)")!, port: bound, databasePath: path, group: group, running: running
        )
    }

    init(url: URL, port: Int, databasePath: String, group: ServiceGroup, running: Task<Void, any Error>) {
        self.url = url
        self.port = port
        self.databasePath = databasePath
        self.group = group
        self.running = running
    }

    /// Stops the server and returns once it no longer listens and its database is closed.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = await running.result
    }

    /// A new SQLite path in a fresh temporary folder.
    public static func temporaryDatabase() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("gatehouse.sqlite").path
    }
}
