import Foundation
import GatehouseSQL
import Logging
import SQLKit
import Testing

/// Schema version 4 splits the names of accounts created before first and last names existed.
@Suite struct NameMigrationTests {
    @Test func FR006_existingAccountsGetFirstAndLastNamesFromTheirName() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-\(UUID().uuidString).sqlite").path
        let database = try await SQLiteDatabase(path: path, logger: Logger(label: "t"))
        // A version-3 database, as the previous release left it.
        try await database.sql.raw("CREATE TABLE gatehouse_schema (version BIGINT NOT NULL)").run()
        try await database.sql.raw("INSERT INTO gatehouse_schema (version) VALUES (3)").run()
        try await database.sql.raw("""
            CREATE TABLE users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, name TEXT NOT NULL, password_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL, password_changed_at BIGINT NOT NULL, locked_at BIGINT)
            """).run()
        try await database.sql.raw("""
            CREATE TABLE sessions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, revoked_at BIGINT, revoked_reason TEXT)
            """).run()
        try await database.sql.raw("""
            CREATE TABLE refresh_tokens (token_hash TEXT PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            created_at BIGINT NOT NULL, rotated_at BIGINT, sealed_successor TEXT)
            """).run()
        try await database.sql.raw("""
            INSERT INTO users VALUES ('u1', 'ada@example.com', 'Ada King Lovelace', 'x', 0, 0, NULL), ('u2', 'cher@example.com', 'Cher', 'x', 0, 0, NULL)
            """).run()
        let repository = SQLRepository(database: database.sql)
        try await repository.migrate()
        let ada = try #require(try await repository.user(email: "ada@example.com"))
        #expect(ada.personName.first == "Ada" && ada.personName.last == "King Lovelace" && ada.name == "Ada King Lovelace")
        let cher = try #require(try await repository.user(email: "cher@example.com"))
        #expect(cher.profile.firstName == "Cher" && cher.profile.lastName == "")
        try await database.close()
    }
}
