import Synchronization

/// A store that forgets everything when the process ends; for tests and previews.
public final class InMemorySessionStore: SessionStore {
    private let stored: Mutex<Session?>

    public init(_ session: Session? = nil) {
        stored = Mutex(session)
    }

    public func update<T: Sendable>(_ body: @Sendable (inout Session?) throws -> T) async throws -> T {
        try stored.withLock { try body(&$0) }
    }
}
