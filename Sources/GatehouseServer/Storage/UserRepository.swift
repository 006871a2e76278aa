/// Where accounts are kept.
public protocol UserRepository: Sendable {
    /// Adds an account; throws ``RepositoryError/duplicateEmail`` when the email is taken.
    func createUser(_ user: UserRecord) async throws
    func user(email: String) async throws -> UserRecord?
    func user(id: String) async throws -> UserRecord?
    func allUsers() async throws -> [UserRecord]
    /// Replaces an account's name, password hash and lock state.
    func updateUser(_ user: UserRecord) async throws
    /// Removes an account with its sessions; returns whether it existed.
    func deleteUser(id: String) async throws -> Bool
}

/// A repository operation that cannot be carried out.
public enum RepositoryError: Error, Equatable {
    case duplicateEmail
}
