import Foundation
import GatehouseCore

/// Times argon2id hashes one at a time, on one thread, with nothing else running.
enum HashTiming {
    /// An implementation the bound is measured with: its name and one hash at OWASP's parameters.
    struct Candidate: Sendable {
        let name: String
        let hash: @Sendable ([UInt8], [UInt8]) throws -> Void
    }

    /// Every argon2id implementation on this machine, at the parameters Gatehouse stores.
    ///
    /// The first is Gatehouse's own way and the fastest here: libsodium in memory the thread
    /// maps once and reuses (`SodiumArgon2id`'s loan). The second is libsodium as it ships,
    /// mapping fresh memory for every hash: issue 41's original bound.
    static let candidates: [Candidate] = [
        Candidate(name: "libsodium crypto_pwhash_argon2id, memory reused") { password, salt in
            _ = try Argon2.Sodium.hashHere(password, salt: salt, parameters: .owasp, length: 32, scratch: .current)
        },
        Candidate(name: "libsodium crypto_pwhash_argon2id, fresh memory each hash") { password, salt in
            _ = try Argon2.Sodium.hashHere(password, salt: salt, parameters: .owasp, length: 32, scratch: nil)
        },
        Candidate(name: "libargon2, memory reused") { password, salt in
            _ = try Argon2.Reference.hash(password, salt: salt, parameters: .owasp, version: 0x13, length: 32)
        },
    ]

    /// Each candidate's median of `samples` hashes on one thread (after one warm-up), fastest first.
    static func candidateMedians(samples: Int) -> [(name: String, seconds: Double)] {
        candidates.map { candidate in
            let salt = [UInt8](repeating: 7, count: 16)
            try? candidate.hash(Array("warm-up".utf8), salt)
            let times = (0..<samples).map { index in
                let start = ContinuousClock.now
                try? candidate.hash(Array("benchmark-password-\(index)".utf8), salt)
                return (ContinuousClock.now - start).seconds
            }
            return (candidate.name, times.sorted()[samples / 2])
        }
        .sorted { $0.seconds < $1.seconds }
    }

    /// The fastest candidate's median: the bound's hash time.
    static func fastest(samples: Int) -> Double {
        candidateMedians(samples: samples)[0].seconds
    }

    /// Prints each candidate's median and the fastest (`gatehouse-bench hashes`).
    static func report(samples: Int) {
        let medians = candidateMedians(samples: samples)
        for (name, seconds) in medians {
            print(String(format: "argon2id (m=19 MiB, t=2, p=1), %@: %.2f ms per hash (median of %d, one thread)", name, seconds * 1000, samples))
        }
        print(String(format: "fastest: %.3f ms", medians[0].seconds * 1000))
    }

    /// The median of `samples` hashes through Gatehouse's own path (the hashing pool).
    static func median(samples: Int) async throws -> Double {
        try await times(samples: samples).sorted()[samples / 2]
    }

    /// The time of each of `samples` hashes through the hashing pool, after one warm-up.
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
