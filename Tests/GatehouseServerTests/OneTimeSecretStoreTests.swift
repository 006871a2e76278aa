import Foundation
import GatehouseCore
import GatehouseSQL
import Logging
import SQLKit
import Testing

/// Issue 20's one store for one-time secrets, on SQLite and PostgreSQL: any kind of secret gets
/// the same guarantees (one live per target, tries counted before comparing, used once, expiry),
/// across instances, and the phone codes and provider flows of an earlier schema move in intact.
@Suite struct OneTimeSecretStoreTests {
    typealias Engine = RepositoryContractTests.Engine
    static let now = RepositoryContractTests.now
    /// A kind no feature uses yet: the store's guarantees do not depend on the kind.
    static let token = OneTimeSecretPurpose(rawValue: "test_token")

    static func secret(_ id: String, target: String = "ann@example.com", lifetime: TimeInterval = 300) -> OneTimeSecret {
        OneTimeSecret(
            purpose: token, id: id, target: target, secretMAC: "mac-\(id)", data: Data(#"{"kind":"test"}"#.utf8),
            createdAt: now, expiresAt: now.addingTimeInterval(lifetime)
        )
    }

    @Test(arguments: Engine.available)
    func I20_aNewKindOfSecretGetsEveryGuaranteeAcrossInstances(_ engine: Engine) async throws {
        try await RepositoryContractTests.withDatabase(engine, instances: 3) { repositories in
            // One live secret per target: a second replaces the first in one statement.
            try await repositories[0].putSecret(Self.secret("s1"))
            try await repositories[1].putSecret(Self.secret("s2"))
            #expect(try await repositories[2].secret(Self.token, id: "s1") == nil)
            #expect(try await repositories[2].secret(Self.token, target: "ann@example.com") == Self.secret("s2"))
            // Another purpose with the same id and target is another secret.
            var code = Self.secret("s2")
            code.purpose = .phoneCode
            try await repositories[0].putSecret(code)
            #expect(try await repositories[1].secret(Self.token, id: "s2") == Self.secret("s2"))
            // Twenty parallel tries on three instances: exactly five are counted.
            let claims = await withTaskGroup(of: Int?.self) { group in
                for index in 0..<20 {
                    group.addTask { try? await repositories[index % 3].claimAttempt(Self.token, id: "s2", maximum: 5, now: Self.now)?.attempts }
                }
                return await group.reduce(into: [Int]()) { if let attempts = $1 { $0.append(attempts) } }
            }
            #expect(claims.sorted() == [1, 2, 3, 4, 5])
            // Used once, by one of two racing instances; never once expired.
            try await repositories[0].putSecret(Self.secret("s3", target: "bob@example.com"))
            async let first = repositories[1].consumeSecret(Self.token, id: "s3", at: Self.now, unexpiredAt: Self.now)
            async let second = repositories[2].consumeSecret(Self.token, id: "s3", at: Self.now, unexpiredAt: Self.now)
            let winners = [try await first, try await second].compactMap { $0 }
            #expect(winners.count == 1 && winners.first?.consumedAt == Self.now)
            try await repositories[0].putSecret(Self.secret("s4", target: "cy@example.com", lifetime: 60))
            #expect(try await repositories[1].consumeSecret(Self.token, id: "s4", at: Self.now, unexpiredAt: Self.now.addingTimeInterval(60)) == nil)
            #expect(try await repositories[1].claimAttempt(Self.token, id: "s4", maximum: 5, now: Self.now.addingTimeInterval(60)) == nil)
            // Purging takes only the named purposes' expired secrets.
            #expect(try await repositories[0].purgeSecrets([Self.token], before: Self.now.addingTimeInterval(120)) == 1)
            #expect(try await repositories[0].secret(.phoneCode, id: "s2") != nil)
            #expect(try await repositories[0].secret(Self.token, id: "s2") != nil)
        }
    }

    @Test(arguments: Engine.available)
    func I20_codesAndFlowsOfVersion12MoveIntoTheOneStoreIntact(_ engine: Engine) async throws {
        let location = try await engine.makeDatabase()
        try await Storage.with(location, logger: Logger(label: "migration")) { storage in
            let repository = storage.repository
            // The schema as release 12 left it, with a code two tries in, a flow waiting for its
            // callback, and a finished app flow whose return code was not yet exchanged.
            let migrations = SchemaMigrations(repository: repository)
            try await repository.database.raw("CREATE TABLE gatehouse_schema (version BIGINT NOT NULL)").run()
            for step in migrations.steps.prefix(12) { try await step(repository.database) }
            try await repository.database.raw("INSERT INTO gatehouse_schema (version) VALUES (12)").run()
            let ms = Self.now.milliseconds
            try await repository.database.raw("""
                INSERT INTO phone_codes (id, phone, purpose, name, code_mac, created_at, expires_at, attempts, consumed_at)
                VALUES ('ghv_1', '+919876543210', 'register', 'Asha Rao', 'mac', \(bind: ms), \(bind: ms + 300_000), 2, NULL)
                """).run()
            try await repository.database.raw("""
                INSERT INTO oidc_flows (id, provider, purpose, binding_hash, return_to, created_at, expires_at)
                VALUES ('waiting', 'google', 'web', 'binding', '/home', \(bind: ms), \(bind: ms + 300_000))
                """).run()
            try await repository.database.raw("""
                INSERT INTO oidc_flows (id, provider, purpose, binding_hash, return_to, client_state, user_id, is_new_user, code_hash,
                created_at, expires_at, consumed_at)
                VALUES ('finished', 'google', 'app', 'binding-2', 'http://127.0.0.1:9/cb', 'st', 'user-1', 1, 'code-hash',
                \(bind: ms), \(bind: ms + 60_000), \(bind: ms))
                """).run()
            try await repository.migrate()
            #expect(try await SchemaMigrations.version(in: repository.database) == migrations.steps.count)
            let code = try #require(try await repository.phoneCode(phone: "+919876543210"))
            #expect(code.id == "ghv_1" && code.purpose == .register && code.name == "Asha Rao" && code.attempts == 2 && code.codeMAC == "mac")
            #expect(try await repository.claimAttempt(id: "ghv_1", maximum: 3, now: Self.now)?.attempts == 3)
            #expect(try await repository.claimAttempt(id: "ghv_1", maximum: 3, now: Self.now) == nil, "the tries made before carry on")
            let waiting = try await repository.consumeFlow(id: "waiting", now: Self.now.addingTimeInterval(10))
            #expect(waiting?.purpose == .web && waiting?.returnTo == "/home" && waiting?.bindingHash == "binding")
            let exchanged = try await repository.exchangeFlowCode(hash: "code-hash", now: Self.now.addingTimeInterval(10))
            #expect(exchanged?.id == "finished" && exchanged?.userID == "user-1" && exchanged?.isNewUser == true && exchanged?.clientState == "st")
            #expect(try await repository.exchangeFlowCode(hash: "code-hash", now: Self.now.addingTimeInterval(11)) == nil)
            struct Count: Decodable { let n: Int }
            let tables = engine == .sqlite
                ? "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('phone_codes', 'oidc_flows')"
                : "SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_name IN ('phone_codes', 'oidc_flows')"
            #expect(try await repository.database.raw(SQLQueryString(tables)).first(decoding: Count.self)?.n == 0, "the old tables are gone")
        }
    }
}
