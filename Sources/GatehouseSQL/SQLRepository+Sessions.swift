import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: SessionRepository {
    package struct SessionRow: Decodable {
        package enum CodingKeys: String, CodingKey, CaseIterable {
            case id, userId = "user_id", createdAt = "created_at", expiresAt = "expires_at", revokedAt = "revoked_at"
            case revokedReason = "revoked_reason", deviceLabel = "device_label", address = "ip_address", lastSeenAt = "last_seen_at"
            case aal, amr
        }

        package var id: String
        package var userId: String
        package var createdAt: Int64
        package var expiresAt: Int64
        package var revokedAt: Int64?
        package var revokedReason: String?
        package var deviceLabel: String?
        package var address: String?
        package var lastSeenAt: Int64?
        package var aal: String?
        package var amr: String?

        package var record: SessionRecord {
            SessionRecord(
                id: id, userID: userId, createdAt: Date(milliseconds: createdAt),
                expiresAt: Date(milliseconds: expiresAt), revokedAt: revokedAt.map(Date.init(milliseconds:)),
                revokedReason: revokedReason.flatMap(SessionEndReason.init(rawValue:)),
                deviceLabel: deviceLabel, address: address, lastSeenAt: lastSeenAt.map(Date.init(milliseconds:)),
                assurance: SessionAssurance(storedLevel: aal, storedMethods: amr)
            )
        }
    }

    package struct RefreshTokenRow: Decodable {
        package enum CodingKeys: String, CodingKey, CaseIterable {
            case tokenHash = "token_hash", sessionId = "session_id", createdAt = "created_at", rotatedAt = "rotated_at"
            case sealedSuccessor = "sealed_successor"
        }

        package var tokenHash: String
        package var sessionId: String
        package var createdAt: Int64
        package var rotatedAt: Int64?
        package var sealedSuccessor: String?

        package var record: RefreshTokenRecord {
            RefreshTokenRecord(
                tokenHash: tokenHash, sessionID: sessionId, createdAt: Date(milliseconds: createdAt),
                rotatedAt: rotatedAt.map(Date.init(milliseconds:)), sealedSuccessor: sealedSuccessor
            )
        }
    }

    /// Opens a session with its first credential and the sign-in's writes, in one transaction.
    ///
    /// The two inserts every sign-in runs are written as SQL text with binds rather than built
    /// from a model: SQLKit's insert builder encoded each row through `Codable` and quoted
    /// every column name again at each sign-in.
    public func createSession(_ session: SessionRecord, credential: SessionCredential, with writes: [SignInWrite]) async throws {
        let insertSession = Self.insertSession(session)
        let ended = try await transaction { db in
            try await db.raw(insertSession).run()
            switch credential {
            case .refreshToken(let token):
                try await db.raw(Self.insertRefreshToken(token)).run()
            case .webSession(let web):
                try await db.insert(into: "web_sessions").model(WebSessionRow(web)).run()
            }
            return try await Self.store(writes, in: db)
        }
        for userID in ended { liveness.invalidate(userID: userID) }
    }

    /// The insert of a new session, every column bound (`nil` as NULL).
    static func insertSession(_ session: SessionRecord) -> SQLQueryString {
        """
        INSERT INTO sessions (id, user_id, created_at, expires_at, revoked_at, revoked_reason, device_label, ip_address, \
        last_seen_at, aal, amr) VALUES (\(bind: session.id), \(bind: session.userID), \(bind: session.createdAt.milliseconds), \
        \(bind: session.expiresAt.milliseconds), \(bind: session.revokedAt?.milliseconds), \(bind: session.revokedReason?.rawValue), \
        \(bind: session.deviceLabel), \(bind: session.address), \(bind: session.lastSeenAt?.milliseconds), \
        \(bind: session.assurance.level.rawValue), \(bind: session.assurance.storedMethods))
        """
    }

    /// The insert of a session's refresh token, every column bound (`nil` as NULL).
    static func insertRefreshToken(_ token: RefreshTokenRecord) -> SQLQueryString {
        """
        INSERT INTO refresh_tokens (token_hash, session_id, created_at, rotated_at, sealed_successor) \
        VALUES (\(bind: token.tokenHash), \(bind: token.sessionID), \(bind: token.createdAt.milliseconds), \
        \(bind: token.rotatedAt?.milliseconds), \(bind: token.sealedSuccessor))
        """
    }

    public func storeSignInWrites(_ writes: [SignInWrite]) async throws {
        guard !writes.isEmpty else { return }
        let ended = try await transaction { db in try await Self.store(writes, in: db) }
        for userID in ended { liveness.invalidate(userID: userID) }
    }

    /// Stores a sign-in's writes inside its transaction; a one-time secret found used or
    /// expired fails it with ``RepositoryError/secretSpent(_:)``, so the caller's transaction
    /// stores nothing.
    /// - Returns: the users whose sessions the writes ended, for the caller to drop from
    ///   ``liveness`` once the transaction commits.
    static func store(_ writes: [SignInWrite], in db: any SQLDatabase) async throws -> [String] {
        var ended: [String] = []
        for write in writes {
            switch write {
            case .passkeyUsed(let credentialID, let signCount, let backedUp, let date):
                try await db.raw(passkeyUse(credentialID: credentialID, signCount: signCount, backedUp: backedUp, at: date)).run()
            case .failureStreakCleared(let key):
                try await db.raw("DELETE FROM throttles WHERE key = \(bind: key)").run()
            case .secretConsumed(let purpose, let id, let date):
                try spending(write, try await db.raw(consume(purpose, id: id, at: date, unexpiredAt: date)).first())
            case .factorStepAccepted(let factorID, let userID, let step, let date):
                try spending(write, try await db.raw(acceptStep(factorID: factorID, userID: userID, step: step, at: date)).first())
            case .factorChallengeCompleted(let id, let date):
                try spending(write, try await db.raw(completeChallenge(id: id, at: date)).first())
            case .recoveryCodesReplaced(let userID, let hashes, let date):
                try await replaceRecoveryCodes(userID: userID, hashes: hashes, at: date, in: db)
            case .sessionEnded(let id, let reason, let date):
                let rows = try await db.raw(endSession(id: id, at: date, reason: reason)).all()
                ended += try rows.map { try $0.decode(column: "user_id", as: String.self) }
            }
        }
        return ended
    }

    /// A spending write's conditional statement returned `row`: none means another request
    /// spent the secret first (or it expired).
    private static func spending(_ write: SignInWrite, _ row: (any SQLRow)?) throws {
        guard row != nil else { throw RepositoryError.secretSpent(write) }
    }

    /// One statement: the live session `id` ends, returning its user; no row if it had ended.
    static func endSession(id: String, at date: Date, reason: SessionEndReason) -> SQLQueryString {
        """
        UPDATE sessions SET revoked_at = \(bind: date.milliseconds), revoked_reason = \(bind: reason.rawValue)
        WHERE id = \(bind: id) AND revoked_at IS NULL RETURNING user_id
        """
    }

    public func session(id: String) async throws -> SessionRecord? {
        try await database.select().column("*").from("sessions").where("id", .equal, id)
            .first(decoding: SessionRow.self)?
            .record
    }

    public func revokeSessions(userID: String, keeping: String?, at date: Date, reason: SessionEndReason) async throws -> Int {
        var query = database.update("sessions")
            .set("revoked_at", to: date.milliseconds)
            .set("revoked_reason", to: reason.rawValue)
            .where("user_id", .equal, userID)
            .where("revoked_at", .is, SQLLiteral.null)
        if let keeping { query = query.where("id", .notEqual, keeping) }
        let statement = query
        return try await changing(user: userID) { try await write { try await statement.returning("id").all().count } }
    }

    public func touchSession(id: String, at date: Date) async throws {
        try await write {
            try await database.update("sessions").set("last_seen_at", to: date.milliseconds).where("id", .equal, id).run()
        }
    }

    public func revokeSession(id: String, at date: Date, reason: SessionEndReason) async throws {
        let statement = Self.endSession(id: id, at: date, reason: reason)
        let ended = try await write { try await database.raw(statement).all() }
        for row in ended { liveness.invalidate(userID: try row.decode(column: "user_id", as: String.self)) }
    }

    public func liveSessions(userID: String, at date: Date) async throws -> [SessionRecord] {
        try await database.select().column("*").from("sessions")
            .where("user_id", .equal, userID)
            .where("revoked_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, date.milliseconds)
            .orderBy(SQLOrderBy(expression: SQLFunction.coalesce(SQLColumn("last_seen_at"), SQLColumn("created_at")), direction: SQLDirection.descending))
            .orderBy("id")
            .all(decoding: SessionRow.self)
            .map(\.record)
    }

    public func countLiveSessions(at date: Date) async throws -> Int {
        struct Count: Decodable { let count: Int64 }
        let query: SQLQueryString = """
            SELECT COUNT(*) AS count FROM sessions WHERE revoked_at IS NULL AND expires_at > \(bind: date.milliseconds)
            """
        return Int(try await database.raw(query).first(decoding: Count.self)?.count ?? 0)
    }

    public func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await database.select().column("*").from("refresh_tokens").where("token_hash", .equal, hash)
            .first(decoding: RefreshTokenRow.self)?
            .record
    }
}
