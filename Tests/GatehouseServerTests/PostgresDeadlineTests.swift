import Foundation
import GatehouseCore
import GatehouseSQL
import GatehouseTestSupport
import Logging
import NIOCore
import SQLKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL that stops answering cannot hold a request: waiting for a connection, opening one
/// and every statement have deadlines (``PostgresDeadlines``), past which the request gets 503
/// `server_busy` (the failure ``StorageFailure/meansUnavailable``) and the pool goes on with
/// connections that work. Migrations and housekeeping have no statement deadline.
@Suite struct PostgresDeadlineTests {
    /// A server that takes the TCP connection and never says a word (a stalled or overloaded
    /// PostgreSQL, a half-open firewall): the statement fails as unavailable within the
    /// connection wait, where the libraries alone waited 10 s.
    @Test(.timeLimit(.minutes(1))) func aServerThatNeverAnswersFailsTheStatementAsUnavailableWithinTheWait() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        var deadlines = PostgresDeadlines()
        deadlines.connectionWait = .milliseconds(400)
        deadlines.connect = .milliseconds(400)
        let pools = try PostgresPools(url: "postgres://nobody@127.0.0.1:\(silent.port)/none?sslmode=disable", logger: Logger(label: "silent"), deadlines: deadlines)
        let started = ContinuousClock.now
        let failure = await #expect(throws: (any Error).self) { try await pools.sql.raw("SELECT 1").run() }
        #expect(ContinuousClock.now - started < .seconds(5), "failed within the documented bound, not after the libraries' 10 s")
        #expect((failure as? any StorageFailure)?.meansUnavailable == true, "answered 503, not 500: \(String(describing: failure))")
        #expect(silent.accepted() >= 1, "the statement reached the silent server")
        try await pools.shutdown()
    }

    /// A statement past its deadline fails as unavailable; inside a transaction nothing of it is
    /// committed; the connection is dropped and the next statement works. The patient database
    /// runs the same statement to its end.
    @Test(.timeLimit(.minutes(1)), arguments: RepositoryContractTests.Engine.available.filter { $0 == .postgres })
    func aStatementPastItsDeadlineFailsAsUnavailableRollsBackAndThePoolGoesOn(engine: RepositoryContractTests.Engine) async throws {
        let url = try await TestDatabase.makePostgres(on: TestDatabase.postgresServer ?? "")
        var deadlines = PostgresDeadlines()
        deadlines.statement = .milliseconds(300)
        let pools = try PostgresPools(url: url, logger: Logger(label: "deadline"), deadlines: deadlines)
        let repository = SQLRepository(database: pools.sql, sharedConnection: false, patientDatabase: pools.patientSQL)
        try await repository.database.raw("CREATE TABLE slow_test (n INT)").run()
        let started = ContinuousClock.now
        let failure = await #expect(throws: (any Error).self) {
            try await repository.transaction { session in
                try await session.raw("INSERT INTO slow_test VALUES (1)").run()
                try await session.raw("SELECT pg_sleep(5)").run()
            }
        }
        #expect(ContinuousClock.now - started < .seconds(4), "failed at the deadline, not after the statement")
        #expect(failure is PostgresStatementTimedOut, "\(String(describing: failure))")
        #expect((failure as? any StorageFailure)?.meansUnavailable == true)
        struct Count: Decodable { let n: Int64 }
        #expect(try await repository.database.raw("SELECT COUNT(*) AS n FROM slow_test").first(decoding: Count.self)?.n == 0)
        try await repository.transaction { try await $0.raw("INSERT INTO slow_test VALUES (2)").run() }
        try await pools.patientSQL.raw("SELECT pg_sleep(0.6)").run()
        #expect(try await repository.database.raw("SELECT COUNT(*) AS n FROM slow_test").first(decoding: Count.self)?.n == 1)
        try await pools.shutdown()
    }
}

/// A TCP listener on a free loopback port whose connections the kernel completes and nobody
/// answers.
private final class SilentListener: @unchecked Sendable {
    let descriptor: Int32
    let port: Int
    private var taken: [Int32] = []

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Connections waiting in the backlog, taken (and kept open, silent) now.
    func accepted() -> Int {
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        while case let connection = accept(descriptor, nil, nil), connection >= 0 { taken.append(connection) }
        return taken.count
    }

    func close() {
        for connection in taken + [descriptor] { _ = Glibc.close(connection) }
    }
}
