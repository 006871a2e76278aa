import Foundation
import GatehouseServer
import Hummingbird
import Logging
import ServiceLifecycle

/// The real Gatehouse application on a free loopback port, with a fresh SQLite file.
struct BenchServer {
    let url: String
    let group: ServiceGroup

    static let email = "bench@example.com"
    static let password = "bench-password-1"

    static func start() async throws -> BenchServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = GatehouseConfiguration()
        configuration.databasePath = directory.appendingPathComponent("bench.sqlite").path
        configuration.port = 0
        configuration.logRequests = false
        var logger = Logger(label: "bench")
        logger.logLevel = .warning

        let database = try await SQLiteDatabase(path: configuration.databasePath, logger: logger)
        let repository = SQLRepository(database: database.sql)
        try await repository.migrate()
        try await UserAdministration(repository: repository).create(email: email, name: "Bench", password: password)
        try await database.close()

        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(configuration, logger: logger) { port in continuation.yield(port) }
        let group = ServiceGroup(services: [app], logger: logger)
        Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return BenchServer(url: "http://127.0.0.1:\(port)", group: group)
    }

    func stop() async {
        await group.triggerGracefulShutdown()
    }
}
