import Foundation
import GatehouseCore
import SQLKit

/// The joined reads of the hot paths: one statement where three would each cost a round trip
/// (and, on SQLite, a hop to the blocking thread pool and back).
extension SQLRepository {
    public func sessionWithUser(id: String) async throws -> (SessionRecord, UserRecord)? {
        let query: SQLQueryString = """
            SELECT \(unsafeRaw: Self.sessionColumns), \(unsafeRaw: Self.userColumns) FROM sessions s
            JOIN users u ON u.id = s.user_id
            LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email'
            WHERE s.id = \(bind: id)
            """
        guard let row = try await database.raw(query).first() else { return nil }
        return (
            try row.decode(model: SessionRow.self, prefix: "s_").record,
            try row.decode(model: UserRow.self, prefix: "u_").record
        )
    }

    public func refreshTokenChain(hash: String) async throws -> (RefreshTokenRecord, SessionRecord, UserRecord)? {
        guard let row = try await database.raw(Self.chainSelect(hash: hash)).first() else { return nil }
        return (
            try row.decode(model: RefreshTokenRow.self, prefix: "t_").record,
            try row.decode(model: SessionRow.self, prefix: "s_").record,
            try row.decode(model: UserRow.self, prefix: "u_").record
        )
    }

    /// The token, its session and its user, each column prefixed by its table's alias
    /// (`t_`, `s_`, `u_`), and `extra` columns.
    static func chainSelect(hash: String, extra: String = "") -> SQLQueryString {
        """
        SELECT \(unsafeRaw: tokenColumns), \(unsafeRaw: sessionColumns), \(unsafeRaw: userColumns)\(unsafeRaw: extra)
        FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id JOIN users u ON u.id = s.user_id
        LEFT JOIN identities e ON e.user_id = u.id AND e.provider = 'email'
        WHERE t.token_hash = \(bind: hash)
        """
    }

    /// `alias.column AS prefix_column` for each column, so joined tables' names cannot collide.
    private static func select(_ alias: String, _ columns: [String]) -> String {
        columns.map { "\(alias).\($0) AS \(alias)_\($0)" }.joined(separator: ", ")
    }

    private static let tokenColumns = select("t", RefreshTokenRow.CodingKeys.allCases.map(\.rawValue))
    private static let sessionColumns = select("s", SessionRow.CodingKeys.allCases.map(\.rawValue))
    /// A `users` row joined as `u` (its email identity as `e`), each column as `u_column`.
    static let userColumns = select("u", UserRow.CodingKeys.allCases.map(\.rawValue).filter { $0 != "email" && $0 != "anonymous" })
        + ", e.subject AS u_email, " + anonymousColumn.replacingOccurrences(of: "AS anonymous", with: "AS u_anonymous")
}
