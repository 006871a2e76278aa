import SQLKit

extension SchemaMigrations {
    /// Version 12: each session records its device: a label read from the user agent at sign-in
    /// ("iPhone · Safari"), the client address it signed in from, and when it was last used.
    /// Sessions from before have none of the three until their next refresh sets `last_seen_at`.
    package static let sessionDevices: Step = { db in
        // One column per statement: SQLite's ALTER TABLE adds one at a time.
        try await db.alter(table: "sessions").column("device_label", type: .text).run()
        try await db.alter(table: "sessions").column("ip_address", type: .text).run()
        try await db.alter(table: "sessions").column("last_seen_at", type: .bigint).run()
    }
}
