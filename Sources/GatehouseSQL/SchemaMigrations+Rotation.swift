import SQLKit

extension SchemaMigrations {
    /// Version 9: a rotation is one statement. Setting a token's `successor_hash` inserts the
    /// successor's row in the same statement (a trigger on both engines), so claiming a token
    /// and storing what replaces it can neither half-happen nor cost two round trips.
    package static let oneStatementRotation: Step = { db in
        try await db.alter(table: "refresh_tokens").column("successor_hash", type: .text).run()
        let insert = """
            INSERT INTO refresh_tokens (token_hash, session_id, created_at)
            VALUES (NEW.successor_hash, NEW.session_id, NEW.rotated_at);
            """
        let when = "OLD.successor_hash IS NULL AND NEW.successor_hash IS NOT NULL"
        if db.dialect.name == "postgresql" {
            try await db.raw("""
                CREATE FUNCTION gatehouse_insert_successor() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN \(unsafeRaw: insert) RETURN NEW; END $$
                """).run()
            try await db.raw("""
                CREATE TRIGGER refresh_tokens_successor AFTER UPDATE OF successor_hash ON refresh_tokens
                FOR EACH ROW WHEN (\(unsafeRaw: when)) EXECUTE FUNCTION gatehouse_insert_successor()
                """).run()
        } else {
            try await db.raw("""
                CREATE TRIGGER refresh_tokens_successor AFTER UPDATE OF successor_hash ON refresh_tokens
                FOR EACH ROW WHEN \(unsafeRaw: when) BEGIN \(unsafeRaw: insert) END
                """).run()
        }
    }
}
