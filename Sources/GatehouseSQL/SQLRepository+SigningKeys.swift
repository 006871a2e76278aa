import Foundation
import GatehouseCore
import SQLKit

extension SQLRepository: SigningKeyRepository {
    package struct SigningKeyRow: Codable {
        package enum CodingKeys: String, CodingKey {
            case kid, sealedPrivateKey = "sealed_private_key", createdAt = "created_at", retiredAt = "retired_at"
        }

        package var kid: String
        package var sealedPrivateKey: String
        package var createdAt: Int64
        package var retiredAt: Int64?
    }

    public func activeSigningKeys() async throws -> [SigningKeyRecord] {
        try await database.select().column("*").from("signing_keys")
            .where("retired_at", .is, SQLLiteral.null)
            .orderBy("created_at").orderBy("kid")
            .all(decoding: SigningKeyRow.self)
            .map {
                SigningKeyRecord(
                    kid: $0.kid, sealedPrivateKey: $0.sealedPrivateKey, createdAt: Date(milliseconds: $0.createdAt),
                    retiredAt: $0.retiredAt.map(Date.init(milliseconds:))
                )
            }
    }

    public func insertSigningKey(_ key: SigningKeyRecord) async throws {
        let row = SigningKeyRow(
            kid: key.kid, sealedPrivateKey: key.sealedPrivateKey, createdAt: key.createdAt.milliseconds,
            retiredAt: key.retiredAt?.milliseconds
        )
        try await write {
            try await database.insert(into: "signing_keys").model(row)
                .ignoringConflicts(with: ["kid"]).run()
        }
    }

    public func retireSigningKey(kid: String, at date: Date) async throws -> Bool {
        try await write {
            !(try await database.update("signing_keys").set("retired_at", to: date.milliseconds)
                .where("kid", .equal, kid).where("retired_at", .is, SQLLiteral.null)
                .returning("kid").all()).isEmpty
        }
    }
}
