import Foundation
import LoginCore
import SQLKit

extension SQLRepository: UserRepository {
    struct UserRow: Codable {
        var id: String
        var email: String
        var name: String
        var firstName: String
        var lastName: String
        var passwordHash: String
        var createdAt: Int64
        var passwordChangedAt: Int64
        var lockedAt: Int64?

        init(_ user: UserRecord) {
            id = user.id
            email = user.email
            name = user.name
            firstName = user.personName.first
            lastName = user.personName.last
            passwordHash = user.passwordHash
            createdAt = user.createdAt.milliseconds
            passwordChangedAt = user.passwordChangedAt.milliseconds
            lockedAt = user.lockedAt?.milliseconds
        }

        var record: UserRecord {
            UserRecord(
                id: id, email: email, name: PersonName(first: firstName, last: lastName), passwordHash: passwordHash,
                createdAt: Date(milliseconds: createdAt), passwordChangedAt: Date(milliseconds: passwordChangedAt),
                lockedAt: lockedAt.map(Date.init(milliseconds:))
            )
        }
    }

    public func createUser(_ user: UserRecord) async throws {
        if try await self.user(email: user.email) != nil { throw RepositoryError.duplicateEmail }
        try await database.insert(into: "users").model(UserRow(user), keyEncodingStrategy: .convertToSnakeCase).run()
    }

    public func user(email: String) async throws -> UserRecord? {
        try await findUser(where: "email", is: email)
    }

    public func user(id: String) async throws -> UserRecord? {
        try await findUser(where: "id", is: id)
    }

    public func allUsers() async throws -> [UserRecord] {
        try await database.select().column("*").from("users").orderBy("created_at")
            .all(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase)
            .map(\.record)
    }

    public func updateUser(_ user: UserRecord) async throws {
        let row = UserRow(user)
        try await database.update("users")
            .set("name", to: row.name)
            .set("first_name", to: row.firstName)
            .set("last_name", to: row.lastName)
            .set("password_hash", to: row.passwordHash)
            .set("password_changed_at", to: row.passwordChangedAt)
            .set("locked_at", to: row.lockedAt)
            .where("id", .equal, row.id)
            .run()
    }

    public func deleteUser(id: String) async throws -> Bool {
        let deleted = try await database.delete(from: "users").where("id", .equal, id).returning("id").all()
        return !deleted.isEmpty
    }

    private func findUser(where column: String, is value: String) async throws -> UserRecord? {
        try await database.select().column("*").from("users").where(column, .equal, value)
            .first(decoding: UserRow.self, keyDecodingStrategy: .convertFromSnakeCase)?
            .record
    }
}
