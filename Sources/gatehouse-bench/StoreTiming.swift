import Foundation
import GatehouseClient
import LoginCore

/// Times saving and loading a session in each store this machine has (seed 001 SC-004: 100 ms).
enum StoreTiming {
    static let session = Session(
        accessToken: "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJiZW5jaCJ9.c2lnbmF0dXJl", refreshToken: "ghr_" + String(repeating: "x", count: 43),
        expiresAt: Date(timeIntervalSince1970: 1_800_000_900), user: SignedInUser(id: "bench", email: "bench@example.com", name: "Bench")
    )

    /// `(name, median save, median load)` in seconds for every reachable store.
    static func measure(samples: Int = 21) async throws -> [(String, Double, Double)] {
        var stores: [(String, any SessionStore)] = []
        #if os(Linux)
        if let keyring = SecretServiceSessionStore(server: "bench://\(UUID().uuidString)"), keyring.isReachable() {
            stores.append(("secret-service", keyring))
        }
        #endif
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-bench-\(UUID().uuidString)")
        stores.append(("file", FileSessionStore(url: folder.appendingPathComponent("session.json"))))
        var results: [(String, Double, Double)] = []
        for (name, store) in stores {
            var saves: [Double] = [], loads: [Double] = []
            for index in 0..<samples {
                var session = Self.session
                session.refreshToken += "\(index)"
                var start = ContinuousClock.now
                try await store.save(session)
                saves.append((ContinuousClock.now - start).seconds)
                start = ContinuousClock.now
                _ = try await store.load()
                loads.append((ContinuousClock.now - start).seconds)
            }
            try await store.save(nil)
            results.append((name, saves.sorted()[samples / 2], loads.sorted()[samples / 2]))
        }
        return results
    }
}
