import Foundation

/// Runs `body` on a new thread of its own and returns what it returns.
///
/// For what a thread keeps in its thread dictionary (argon2 memory, a hashing helper), which a
/// task's thread would keep for whatever runs on it next.
func onNewThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
