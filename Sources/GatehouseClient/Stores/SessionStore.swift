/// Where a session is kept between launches: one method, a read-modify-write of the session.
///
/// `update` hands the stored session (or `nil`) to `body`, which may change it; if it did, the
/// store writes the new value (or deletes it, for `nil`) before returning. Reading, saving and
/// clearing are the extensions below. Stores throw ``AuthError/storeLocked`` when the platform
/// store cannot be read yet, which is not the same as having no session.
public protocol SessionStore: Sendable {
    func update<T: Sendable>(_ body: @Sendable (inout Session?) throws -> T) async throws -> T
}

extension SessionStore {
    /// The stored session, if any.
    public func load() async throws -> Session? {
        try await update { $0 }
    }

    /// Replaces the stored session; `nil` removes it.
    public func save(_ session: Session?) async throws {
        try await update { $0 = session }
    }
}
