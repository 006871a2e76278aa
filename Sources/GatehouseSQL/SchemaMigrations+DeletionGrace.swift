import SQLKit

extension SchemaMigrations {
    /// Version 21: when an owner's deletion takes effect (`accounts.deletionGraceDays`, issue 39).
    package static let deletionGrace: Step = { db in
        try await db.alter(table: "users").column("deletion_due_at", type: .bigint).run()
        try await db.create(index: "users_deletion_due_at").on("users").column("deletion_due_at").run()
    }
}
