import Foundation
import GatehouseCore

/// Times argon2id hashes one at a time, on one thread, with nothing else running.
enum HashTiming {
    /// The median of `samples` hashes.
    static func median(samples: Int) async throws -> Double {
        try await times(samples: samples).sorted()[samples / 2]
    }

    /// The time of each of `samples` hashes, after one warm-up.
    static func times(samples: Int) async throws -> [Double] {
        let hasher = PasswordHasher()
        _ = try await hasher.hash("warm-up")
        var times: [Double] = []
        for index in 0..<samples {
            let start = ContinuousClock.now
            _ = try await hasher.hash("benchmark-password-\(index)")
            times.append((ContinuousClock.now - start).seconds)
        }
        return times
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
