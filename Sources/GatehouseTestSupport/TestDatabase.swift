import Foundation
import GatehouseCore
import GatehouseSQL
import Logging

/// A fresh, empty database for one test: an SQLite file in a temporary folder, or, when
/// `GATEHOUSE_TEST_ENGINE=postgres`, a new database on the PostgreSQL server that
/// `GATEHOUSE_TEST_POSTGRES_URL` names (`scripts/with-postgres.sh` starts one).
public enum TestDatabase {
    /// The PostgreSQL server of the contract suite and of the HTTP suites' second run, if any.
    public static var postgresServer: String? {
        ProcessInfo.processInfo.environment["GATEHOUSE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether fixtures put their data on PostgreSQL (the HTTP suites' second run).
    public static var fixturesOnPostgres: Bool {
        ProcessInfo.processInfo.environment["GATEHOUSE_TEST_ENGINE"] == "postgres"
    }

    /// The key-encryption key of test servers on PostgreSQL (fixed, so every instance of a test
    /// shares it); `nil` on SQLite, which keeps its own beside the file.
    public static var keyEncryptionKey: String? {
        !fixturesOnPostgres ? nil : "Z2F0ZWhvdXNlLXRlc3Qta2V5LWVuY3J5cHRpb24ta3k="
    }

    /// The `--database` value of a new database: empty, or on PostgreSQL with the current
    /// schema already in it when `migrated` (a copy of ``MigratedTemplate``'s database).
    ///
    /// Migrating a new PostgreSQL database took about 0.3 s, most of a fixture's setup there;
    /// copying a migrated one takes about a third of that. On SQLite the file is empty either
    /// way (migrating it takes a few milliseconds).
    public static func make(sqliteFolder: URL, migrated: Bool = false) async throws -> String {
        guard fixturesOnPostgres else { return sqliteFolder.appendingPathComponent("gatehouse.sqlite").path }
        guard let server = postgresServer else { throw DatabaseLocationError.malformedURL }
        return try await makePostgres(on: server, migrated: migrated)
    }

    /// Creates a database with a random name on `server`, empty or with the current schema
    /// (copied from ``MigratedTemplate``), and returns its URL.
    public static func makePostgres(on server: String, migrated: Bool = false) async throws -> String {
        try await newPostgres(on: server, copying: migrated ? try await MigratedTemplate.shared.name(on: server) : nil).url
    }

    /// Creates a database with a random name on `server`, empty or a copy of `template`; returns
    /// its name and URL.
    static func newPostgres(on server: String, copying template: String?) async throws -> (name: String, url: String) {
        let name = "gh_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await Storage.with(try DatabaseLocation(server), logger: Logger(label: "test-database")) { storage in
            try await storage.execute("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
        }
        guard var components = URLComponents(string: server) else { throw DatabaseLocationError.malformedURL }
        components.path = "/" + name
        return (name, components.string ?? server)
    }
}
