import Foundation
import Synchronization

/// Fans session changes out to every open `sessionChanges` stream.
final class SessionEvents: Sendable {
    private let continuations = Mutex<[UUID: AsyncStream<SessionChange>.Continuation]>([:])

    /// A new stream that starts with `initial`.
    func stream(initial: SessionChange) -> AsyncStream<SessionChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionChange.self)
        let id = UUID()
        continuation.yield(initial)
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    func emit(_ change: SessionChange) {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.yield(change)
        }
    }
}
