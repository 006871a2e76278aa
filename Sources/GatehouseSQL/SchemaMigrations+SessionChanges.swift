import SQLKit

extension SchemaMigrations {
    /// Version 17: every change that can end a session or alter what a request sees of its
    /// user is announced, whichever process writes it, so each instance's
    /// ``LiveSessionCache`` can forget that user at once.
    ///
    /// The triggers fire on a session's revocation or expiry, and on any change to a user or
    /// their identities. On PostgreSQL they `pg_notify('gatehouse_sessions', user_id)`, which
    /// reaches every listening instance when the transaction commits. On SQLite they append the
    /// user id to `session_changes`, which the server polls (only another process, such as the
    /// CLI, needs it: the server's own writes empty its cache directly).
    package static let sessionChanges: Step = { db in
        let events: [(name: String, table: String, event: String, user: String)] = [
            ("sessions_ended", "sessions", "UPDATE OF revoked_at, expires_at", "NEW.user_id"),
            ("users_changed", "users", "UPDATE", "NEW.id"),
            ("users_deleted", "users", "DELETE", "OLD.id"),
            ("identities_added", "identities", "INSERT", "NEW.user_id"),
            ("identities_changed", "identities", "UPDATE", "NEW.user_id"),
            ("identities_removed", "identities", "DELETE", "OLD.user_id"),
        ]
        if db.dialect.name == "postgresql" {
            // One function for every trigger: the argument names the column holding the user id.
            try await db.raw("""
                CREATE FUNCTION gatehouse_announce() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                  PERFORM pg_notify('\(unsafeRaw: sessionChannel)',
                    (CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END) ->> TG_ARGV[0]);
                  RETURN NULL;
                END $$
                """).run()
            for event in events {
                let column = event.user.split(separator: ".")[1]
                try await db.raw("""
                    CREATE TRIGGER \(unsafeRaw: event.name) AFTER \(unsafeRaw: event.event) ON \(unsafeRaw: event.table)
                    FOR EACH ROW EXECUTE FUNCTION gatehouse_announce('\(unsafeRaw: String(column))')
                    """).run()
            }
        } else {
            try await db.raw("""
                CREATE TABLE session_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL)
                """).run()
            for event in events {
                try await db.raw("""
                    CREATE TRIGGER \(unsafeRaw: event.name) AFTER \(unsafeRaw: event.event) ON \(unsafeRaw: event.table)
                    FOR EACH ROW BEGIN INSERT INTO session_changes (user_id) VALUES (\(unsafeRaw: event.user)); END
                    """).run()
            }
        }
    }

    /// The `LISTEN` channel of PostgreSQL's session announcements.
    package static let sessionChannel = "gatehouse_sessions"
}
