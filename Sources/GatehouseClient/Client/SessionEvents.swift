import Foundation
import Synchronization

/// Session changes, fanned out to every open `sessionChanges` stream.
typealias SessionEvents = Broadcast<SessionChange>

/// Fans values out to every open stream (session changes, analytics events).
final class Broadcast<Value: Sendable>: Sendable {
    private let continuations = Mutex<[UUID: AsyncStream<Value>.Continuation]>([:])

    /// A new stream that starts with `initial`, if any.
    func stream(initial: Value? = nil) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self)
        let id = UUID()
        if let initial { continuation.yield(initial) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    func emit(_ value: Value) {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.yield(value)
        }
    }
}
