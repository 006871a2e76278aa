import Foundation

extension AuthClient {
    /// Restores the stored session at launch and checks it with the server within the budget.
    ///
    /// Offline, a slow server or a server error leave the user signed in (``RestoreResult/offline(_:)``);
    /// the next ``session()`` validates again. Only a definite answer from the server ends it.
    public func restore() async -> RestoreResult {
        let stored: Session?
        do {
            stored = try await manager.load()
        } catch AuthError.storeLocked {
            return .storeLocked
        } catch {
            return .signedOut
        }
        guard let stored else { return .signedOut }
        let budget = configuration.restoreBudget
        let validation = Task { try await self.manager.validate(timeout: budget) }
        let outcome = await Self.first(within: budget) { try await validation.value }
        switch outcome {
        case .some(.success(let session)): return .signedIn(session)
        case .some(.failure(AuthError.sessionEnded(let reason))): return .ended(reason)
        default: return .offline(await manager.current ?? stored)
        }
    }

    /// The result of `work` if it finishes within `seconds` of real time, else `nil`.
    static func first<T: Sendable>(within seconds: TimeInterval, _ work: @escaping @Sendable () async throws -> T) async -> Result<T, any Error>? {
        await withTaskGroup(of: Result<T, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await work()) } catch { return .failure(error) }
            }
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
