import Foundation
import GatehouseCore
import Synchronization

/// Issue 41: login throughput as rounds that can be believed, against the real bound.
///
/// The bound is measured, not derived: libsodium's argon2id at Gatehouse's cost on `cores`
/// threads at once, hashes per second (two busy threads share caches and memory bandwidth, so
/// it is lower than cores ÷ one thread's time; `gatehouse-bench bounds` shows it is the fastest
/// implementation here on every core). Each round signs in at 2, 8 and 16 connections, and at 8
/// beside 8 connections reading `/api/me` as fast as they can, all driven by wrk
/// (``WrkLoad``).
///
/// This machine is noisy: the same hash runs 10 to 20 % faster or slower from one minute to
/// the next. So the bound is measured for a few seconds right before each login phase and once
/// after the last, and each phase is compared with the mean of the bounds either side of it;
/// every round is printed, and the figures are the medians.
enum LoginRounds {
    static let connections = [2, 8, 16]

    struct Round {
        /// The bound around each connection count's phase: the mean of the one before and after.
        var bounds: [Int: Double]
        var logins: [Int: Double]
        /// Logins/s at 8 connections while 8 others read `/api/me`.
        var beside: Double
        var reads: Double
        /// `/api/me` p99, in milliseconds, while 8 connections flood the login route.
        var floodP99: Double
    }

    /// Hashes per second with `threads` threads hashing at once for `seconds`.
    static func parallelBound(threads: Int, seconds: Double, candidate: HashTiming.Candidate = HashTiming.candidates[0]) -> Double {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let total = Mutex(0)
        let start = ContinuousClock.now
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let salt = [UInt8](repeating: 7, count: 16)
            var done = 0
            while ContinuousClock.now < deadline {
                try? candidate.hash(Array("bound-\(thread)-\(done)".utf8), salt)
                done += 1
            }
            total.withLock { $0 += done }
        }
        return Double(total.withLock { $0 }) / (ContinuousClock.now - start).seconds
    }

    /// Runs `rounds` rounds against the server `client` talks to; prints each and the medians.
    /// - Returns: the median logins/s at each connection count.
    @discardableResult
    static func run(_ client: LoadClient, token: String, rounds: Int, seconds: Double) async throws -> [Int: Double] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var done: [Round] = []
        for index in 1...rounds {
            var logins: [Int: Double] = [:], bounds: [Int: Double] = [:]
            var before = parallelBound(threads: cores, seconds: 3)
            for count in connections {
                logins[count] = try await loginLoad(client).rate(connections: count, seconds: seconds)
                let after = parallelBound(threads: cores, seconds: 3)
                bounds[count] = (before + after) / 2
                before = after
            }
            let (beside, reads) = try await besideReads(client, token: token, seconds: seconds)
            let flood = try await Bench.meUnderLoginFlood(client, token: token, seconds: seconds)
            let round = Round(bounds: bounds, logins: logins, beside: beside, reads: reads, floodP99: flood.p99)
            done.append(round)
            print(String(format: "round %d, logins/s (× the %d-thread bound around the phase, hashes/s): %@; at 8 beside 8 /api/me readers %.1f (%.2f× alone, %.0f reads/s); /api/me p99 in a login flood %.2f ms",
                         index, cores, describe(round), beside, beside / (logins[8] ?? 1), reads, flood.p99))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var medians: [Int: Double] = [:]
        for count in connections {
            medians[count] = median(done.map { $0.logins[count] ?? 0 })
            let ratio = median(done.map { ($0.logins[count] ?? 0) / ($0.bounds[count] ?? 1) })
            print(String(format: "logins/s at %2d connections, median of %d rounds: %.1f (%.2f× the %d-thread bound; target ≥ 0.90)",
                         count, rounds, medians[count] ?? 0, ratio, cores))
        }
        let share = median(done.map { $0.beside / ($0.logins[8] ?? 1) })
        print(String(format: "logins at 8 connections beside a saturating /api/me load, median: %.2f× their rate alone (target ≥ 0.50)", share))
        let p99s = done.map(\.floodP99)
        print(String(format: "/api/me p99 during an 8-connection login flood: median %.2f ms, worst %.2f ms of %d rounds (target < 5 ms in every round)",
                     median(p99s), p99s.max() ?? 0, rounds))
        return medians
    }

    private static func describe(_ round: Round) -> String {
        connections.map { count in
            let bound = round.bounds[count] ?? 1
            return String(format: "%d: %.1f (%.2f× %.1f)", count, round.logins[count] ?? 0, (round.logins[count] ?? 0) / bound, bound)
        }.joined(separator: ", ")
    }

    /// The login phases' load: wrk posting the bench account's password (``WrkLoad`` says why).
    private static func loginLoad(_ client: LoadClient) -> WrkLoad {
        WrkLoad(script: "scripts/wrk/login.lua", url: client.base,
                environment: ["EMAIL": LoadClient.email, "PASSWORD": LoadClient.password])
    }

    /// Logins/s at 8 connections while 8 other connections read `/api/me`; and the reads/s.
    private static func besideReads(_ client: LoadClient, token: String, seconds: Double) async throws -> (Double, Double) {
        let readers = WrkLoad(script: "scripts/wrk/me.lua", url: client.base + "/api/me", environment: ["TOKEN": token])
        async let reads = readers.rate(connections: 8, seconds: seconds)
        let logins = try await loginLoad(client).rate(connections: 8, seconds: seconds)
        return (logins, try await reads)
    }
}
