import Foundation
import GatehouseCore
import Synchronization

/// Issue 41: login throughput as rounds that can be believed, against the real bound.
///
/// The bound is measured, not derived: libsodium's argon2id at Gatehouse's cost on `cores`
/// threads at once, each in its reused memory as the server hashes, hashes per second (two busy
/// threads share caches and memory bandwidth, so it is lower than cores ÷ one thread's time;
/// `gatehouse-bench bounds` shows it is the fastest implementation here on every core, about
/// 1.8 times libsodium as shipped, which maps fresh memory for every hash). Each round signs in
/// at 2, 8 and 16 connections, and at 8 beside 8 connections reading `/api/me` as fast as they
/// can, all driven by wrk (``WrkLoad``).
///
/// This machine is noisy: the same hash runs 10 to 20 % faster or slower from one minute to
/// the next. So the bound is measured for a few seconds right before each login phase and once
/// after the last, and each phase is compared with the mean of the bounds either side of it;
/// every round is printed, and the figures are the medians. Each phase is also compared with
/// libsodium in `cores` helper processes at once (``HashWorker``, `serve --hashing-helpers`).
///
/// Each round also runs a server that does nothing but hash (``HashOnlyServer``) at 2
/// connections, between bounds of its own: what any server reaches here with wrk on the same
/// cores. And each phase reports the CPU this process spent per login besides its hash
/// (``HashCPUTime``): the server's own cost per sign-in, which sets how far the phase falls
/// short of the bound, measured on the same sign-ins as the hashes, so the minute-to-minute
/// speed of the machine cancels out; and the hash's own CPU time against one hash of the
/// bound's (`cores` ÷ the bound), which shows how much the rest slows the hashes down.
enum LoginRounds {
    static let connections = [2, 8, 16]

    struct Round {
        /// The bounds around each connection count's phase: the means of the ones before and after.
        var bounds: [Int: Bound]
        /// Each phase's logins/s and CPU per login, besides and in its hash.
        var cpu: [Int: WrkLoad.Measure]
        /// The hash-only server's phase at 2 connections, and its bound.
        var floor: WrkLoad.Measure
        var floorBound: Bound
        /// Logins/s at 8 connections while 8 others read `/api/me`.
        var beside: Double
        var reads: Double
        /// `/api/me` p99, in milliseconds, while 8 connections flood the login route.
        var floodP99: Double

        /// Each phase's logins/s.
        var logins: [Int: Double] { cpu.mapValues(\.rate) }
    }

    /// Hashes per second with `threads` threads hashing at once for `seconds`; with
    /// `inHelpers`, each thread hands its hashes to a helper process of its own, as the
    /// server's hashing threads do (libsodium either way).
    static func parallelBound(
        threads: Int, seconds: Double, candidate: HashTiming.Candidate = HashTiming.candidates[0], inHelpers: Bool = false
    ) -> Double {
        let total = Mutex(0)
        let finished = DispatchGroup()
        let started = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        for thread in 0..<threads {
            finished.enter()
            Thread {
                if inHelpers { HashWorker.attach() }
                let salt = [UInt8](repeating: 7, count: 16)
                try? candidate.hash(Array("warm-\(thread)".utf8), salt)  // starts the helper outside the timing
                started.signal()
                go.wait()
                let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
                var done = 0
                while ContinuousClock.now < deadline {
                    try? candidate.hash(Array("bound-\(thread)-\(done)".utf8), salt)
                    done += 1
                }
                total.withLock { $0 += done }
                HashWorker.existing?.stopIfIdle(after: .zero)
                finished.leave()
            }.start()
        }
        for _ in 0..<threads { started.wait() }
        let start = ContinuousClock.now
        for _ in 0..<threads { go.signal() }
        finished.wait()
        return Double(total.withLock { $0 }) / (ContinuousClock.now - start).seconds
    }

    /// Both bounds now: libsodium on `cores` threads of this process, then in `cores` helper
    /// processes (3 s each).
    static func bounds(cores: Int) -> Bound {
        Bound(threads: parallelBound(threads: cores, seconds: 3), processes: parallelBound(threads: cores, seconds: 3, inHelpers: true))
    }

    /// The hashes/s of both bounds.
    struct Bound {
        var threads: Double
        var processes: Double

        func mean(_ other: Bound) -> Bound {
            Bound(threads: (threads + other.threads) / 2, processes: (processes + other.processes) / 2)
        }
    }

    /// Runs `rounds` rounds against the server `client` talks to; prints each and the medians.
    /// - Returns: the median logins/s at each connection count.
    @discardableResult
    static func run(_ client: LoadClient, token: String, rounds: Int, seconds: Double) async throws -> [Int: Double] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let hashOnly = try HashOnlyServer()
        defer { hashOnly.stop() }
        var done: [Round] = []
        for index in 1...rounds {
            var bounds: [Int: Bound] = [:], cpu: [Int: WrkLoad.Measure] = [:]
            var floor = WrkLoad.Measure(rate: 0, cpuPerRequest: 0, hashCPUPerRequest: 0), floorBound = Bound(threads: 1, processes: 1)
            var before = Self.bounds(cores: cores)
            for count in connections {
                cpu[count] = try await loginLoad(client.base).measure(connections: count, seconds: seconds)
                let after = Self.bounds(cores: cores)
                bounds[count] = before.mean(after)
                before = after
                if count == 2 {
                    floor = try await loginLoad(hashOnly.url).measure(connections: 2, seconds: seconds)
                    let after = Self.bounds(cores: cores)
                    floorBound = before.mean(after)
                    before = after
                }
            }
            let (beside, reads) = try await besideReads(client, token: token, seconds: seconds)
            let flood = try await Bench.meUnderLoginFlood(client, token: token, seconds: seconds)
            let round = Round(
                bounds: bounds, cpu: cpu, floor: floor, floorBound: floorBound, beside: beside, reads: reads, floodP99: flood.p99
            )
            done.append(round)
            print(String(format: "round %d, logins/s (× the %d-thread bound around the phase, hashes/s; × the helper processes' bound): %@; at 8 beside 8 /api/me readers %.1f (%.2f× alone, %.0f reads/s); /api/me p99 in a login flood %.2f ms",
                         index, cores, describe(round), beside, beside / (round.logins[8] ?? 1), reads, flood.p99))
            print(String(format: "round %d, a server that only hashes at 2 connections: %.1f (%.2f× %.1f); CPU per login besides / in its hash (one hash of the bound's), ms: %@; the hash-only server's %.3f / %.2f (%.2f)",
                         index, floor.rate, floor.rate / floorBound.threads, floorBound.threads,
                         connections.compactMap { count in
                             guard let measured = cpu[count], let bound = bounds[count] else { return nil }
                             return String(format: "%d: %.3f / %.2f (%.2f)", count, measured.besidesHash * 1000,
                                           measured.hashCPUPerRequest * 1000, Double(cores) / bound.threads * 1000)
                         }.joined(separator: ", "),
                         floor.besidesHash * 1000, floor.hashCPUPerRequest * 1000, Double(cores) / floorBound.threads * 1000))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var medians: [Int: Double] = [:]
        for count in connections {
            medians[count] = median(done.map { $0.logins[count] ?? 0 })
            let ratio = median(done.map { ($0.logins[count] ?? 0) / ($0.bounds[count]?.threads ?? 1) })
            let processes = median(done.map { ($0.logins[count] ?? 0) / ($0.bounds[count]?.processes ?? 1) })
            print(String(format: "logins/s at %2d connections, median of %d rounds: %.1f (%.2f× the %d-thread bound; target ≥ 0.90) (%.2f× %d helper processes)",
                         count, rounds, medians[count] ?? 0, ratio, cores, processes, cores))
        }
        print(String(format: "a server that does nothing but hash (HashOnlyServer) at 2 connections, median of %d rounds: %.1f (%.2f× the %d-thread bound): what any server reaches here",
                     rounds, median(done.map(\.floor.rate)), median(done.map { $0.floor.rate / $0.floorBound.threads }), cores))
        func besides(_ measured: WrkLoad.Measure?) -> Double { (measured?.besidesHash ?? 0) * 1000 }
        /// A median of per-round ratios whose denominator is the hashes' CPU in this process, or
        /// what stands in for it when the hashes ran in helper processes
        /// (`BENCH_HASHING_HELPERS=1`), whose CPU this process does not see.
        func ofHashes(_ phases: [WrkLoad.Measure?], _ ratio: (WrkLoad.Measure, Int) -> Double, _ format: String) -> String {
            let ratios = phases.enumerated().compactMap { round, measured in
                measured.flatMap { $0.hashCPUPerRequest > 0 ? ratio($0, round) : nil }
            }
            return ratios.count == phases.count ? String(format: format, median(ratios)) : "its hashes in helper processes"
        }
        let sharePerRound = { (measured: WrkLoad.Measure, _: Int) in measured.besidesHash / measured.hashCPUPerRequest }
        print(String(format: "server CPU per login besides its hash, median: %@ ms; the hash-only server's %.3f ms (%@)",
                     connections.map { count in
                         String(format: "%d connections %.3f (%@)", count, median(done.map { besides($0.cpu[count]) }),
                                ofHashes(done.map { $0.cpu[count] }, sharePerRound, "%.3f× the hash's"))
                     }.joined(separator: ", "),
                     median(done.map { besides($0.floor) }), ofHashes(done.map(\.floor), sharePerRound, "%.3f×")))
        print(String(format: "a hash's CPU time in the login phases ÷ one hash of the bound's (%d ÷ the bound), median: %@; the hash-only server's %.2f×",
                     cores, connections.map { count in
                         "\(count) connections " + ofHashes(done.map { $0.cpu[count] }, { measured, round in
                             measured.hashCPUPerRequest / (Double(cores) / (done[round].bounds[count]?.threads ?? 1))
                         }, "%.2f×")
                     }.joined(separator: ", "),
                     median(done.map { $0.floor.hashCPUPerRequest / (Double(cores) / $0.floorBound.threads) })))
        let share = median(done.map { $0.beside / ($0.logins[8] ?? 1) })
        print(String(format: "logins at 8 connections beside a saturating /api/me load, median: %.2f× their rate alone (target ≥ 0.50)", share))
        let p99s = done.map(\.floodP99)
        print(String(format: "/api/me p99 during an 8-connection login flood: median %.2f ms, worst %.2f ms of %d rounds (target < 5 ms in every round)",
                     median(p99s), p99s.max() ?? 0, rounds))
        return medians
    }

    private static func describe(_ round: Round) -> String {
        connections.map { count in
            let bound = round.bounds[count] ?? Bound(threads: 1, processes: 1), rate = round.logins[count] ?? 0
            return String(format: "%d: %.1f (%.2f× %.1f; %.2f× %.1f)", count, rate, rate / bound.threads, bound.threads, rate / bound.processes, bound.processes)
        }.joined(separator: ", ")
    }

    /// The login phases' load: wrk posting the bench account's password (``WrkLoad`` says why).
    private static func loginLoad(_ base: String) -> WrkLoad {
        WrkLoad(script: "scripts/wrk/login.lua", url: base,
                environment: ["EMAIL": LoadClient.email, "PASSWORD": LoadClient.password])
    }

    /// Logins/s at 8 connections while 8 other connections read `/api/me`; and the reads/s.
    private static func besideReads(_ client: LoadClient, token: String, seconds: Double) async throws -> (Double, Double) {
        let readers = WrkLoad(script: "scripts/wrk/me.lua", url: client.base + "/api/me", environment: ["TOKEN": token])
        async let reads = readers.rate(connections: 8, seconds: seconds)
        let logins = try await loginLoad(client.base).rate(connections: 8, seconds: seconds)
        return (logins, try await reads)
    }
}
