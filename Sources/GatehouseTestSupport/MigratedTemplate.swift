import GatehouseCore
import GatehouseSQL
import Logging

/// A PostgreSQL database this process migrates once, for tests to copy (`CREATE DATABASE …
/// TEMPLATE`) instead of migrating a database of their own.
///
/// One per process and server, under a random name: the two test runs that share a server
/// never copy each other's, and none of its connections is open once it is made (PostgreSQL
/// copies only a database nobody is connected to).
actor MigratedTemplate {
    static let shared = MigratedTemplate()

    /// The template's making on each server, shared by callers that ask while it runs.
    private var making: [String: Task<String, any Error>] = [:]

    /// The template's name on `server`, made and migrated on first use.
    func name(on server: String) async throws -> String {
        if let task = making[server] { return try await task.value }
        let task = Task {
            let template = try await TestDatabase.newPostgres(on: server, copying: nil)
            try await Storage.with(try DatabaseLocation(template.url), logger: Logger(label: "test-database")) { storage in
                try await storage.repository.migrate()
            }
            return template.name
        }
        making[server] = task
        return try await task.value
    }
}
