import Foundation
import SQLKit

/// The users and sessions repositories over any SQLKit database (SQLite now, PostgreSQL later).
///
/// Times are stored as whole milliseconds since 1970 in BIGINT columns, which both engines
/// store exactly. Every write that must not race is a single conditional statement, so no
/// transaction has to span several round trips.
public struct SQLRepository: Sendable {
    let database: any SQLDatabase

    /// Creates a repository.
    /// - Parameter database: the SQLKit database to use.
    public init(database: any SQLDatabase) {
        self.database = database
    }

    /// Creates or upgrades the schema; safe to run on every start.
    public func migrate() async throws {
        try await SchemaMigrations(database: database).run()
    }
}

extension Date {
    var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    init(milliseconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }
}
