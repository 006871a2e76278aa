import Foundation

/// Where Gatehouse keeps its data: an SQLite file (the default) or a PostgreSQL server.
///
/// `postgres://user:pass@host:port/db` (or `postgresql://`) selects PostgreSQL; `sqlite:PATH`,
/// `sqlite://PATH` or a plain path selects SQLite; `:memory:` is a private in-memory SQLite.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// Parses a `--database` value or `GATEHOUSE_DATABASE_URL`.
    public init(_ text: String) throws(DatabaseLocationError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .empty }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            guard let url = URL(string: trimmed), url.host != nil, url.path.count > 1 else { throw .malformedURL }
            self = .postgres(url: trimmed)
        } else if lower.hasPrefix("sqlite://") {
            self = .sqlite(path: String(trimmed.dropFirst("sqlite://".count)))
        } else if lower.hasPrefix("sqlite:") {
            self = .sqlite(path: String(trimmed.dropFirst("sqlite:".count)))
        } else if lower.contains("://") {
            throw .unknownScheme
        } else {
            self = .sqlite(path: trimmed)
        }
        if case .sqlite(let path) = self, path.isEmpty { throw .empty }
    }

    /// Never shows a password.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "postgres://…" }
            if components.password != nil { components.password = "***" }
            return components.string ?? "postgres://…"
        }
    }
}

/// Why a database location was refused; each says what to write instead.
public enum DatabaseLocationError: Error, Equatable, CustomStringConvertible {
    case empty, malformedURL, unknownScheme

    public var description: String {
        switch self {
        case .empty: "the database must not be empty"
        case .malformedURL: "a PostgreSQL URL looks like postgres://user:password@host:5432/database"
        case .unknownScheme: "use a file path, sqlite:PATH or postgres://user:password@host:port/database"
        }
    }
}
