import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseTestSupport
import Logging
import NIOCore

/// `gatehouse-bench`: measures Gatehouse in one run and reports ratios, not just times.
///
/// It times LoginCore, the session stores and argon2id on their own, then starts the real
/// server (release build, SQLite file, OWASP hashing, the default hashing threads and queue)
/// on loopback and drives it with AsyncHTTPClient. Logins/s is compared with the argon2id
/// bound, libsodium hashing on every core at once, measured around each login phase of three
/// rounds (``LoginRounds``); the medians are the figures.
@main
struct Bench {
    /// Runs the phases the arguments ask for; a phase that fails ends the run with one line
    /// naming the error and exit status 1 (a bad argument: its usage line and 2).
    static func main() async {
        do {
            try await run(Array(CommandLine.arguments.dropFirst()))
        } catch {
            let line = "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(type(of: error))"
            FileHandle.standardError.write(Data("gatehouse-bench: \(line)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: [String]) async throws {
        switch BenchUsage.verdict(on: arguments) {
        case .run: break
        case .help: return print(BenchUsage.text)
        case .refused(let reason):
            FileHandle.standardError.write(Data("gatehouse-bench: \(reason)\n".utf8))
            exit(2)
        }
        if arguments.first == "target" {  // its URL and seconds are there: checked above
            let pids = arguments.dropFirst(3).compactMap { Int32($0) }
            return try await TargetBench.run(url: arguments[1], seconds: Double(arguments[2]) ?? 8, pids: pids)
        }
        // `gatehouse-bench google`: only the Google phase.
        if arguments.first == "google" { return try await GoogleBench.run() }
        // `gatehouse-bench hashes`: each argon2id implementation's single-thread time, and the fastest.
        if arguments.first == "hashes" { return HashTiming.report(samples: 15) }
        if arguments.first == "passkey" { return try await PasskeyBench.run() }
        // `gatehouse-bench factor`: only a second factor's step-up.
        if arguments.first == "factor" { return try await SecondFactorBench.run() }
        // `gatehouse-bench memory`: only the idle RSS of `serve --demo`, before and after logins.
        if arguments.first == "memory" { return try await IdleMemory.report() }
        // `gatehouse-bench bound [seconds]`: libsodium's argon2id (in reused memory, as the server
        // hashes) on every core at once, hashes/s, one line (scripts read it); `bounds [seconds]`:
        // every implementation that way (libsodium as shipped too), then libsodium in helper
        // processes.
        if arguments.first == "bound" || arguments.first == "bounds" {
            let threads = ProcessInfo.processInfo.activeProcessorCount
            let seconds = Double(arguments.dropFirst().first ?? "") ?? 3
            let candidates = arguments.first == "bound" ? [HashTiming.candidates[0]] : HashTiming.candidates
            for candidate in candidates {
                let rate = LoginRounds.parallelBound(threads: threads, seconds: seconds, candidate: candidate)
                print(String(format: "bound: %.1f hashes/s on %d threads (%@)", rate, threads, candidate.name))
            }
            guard arguments.first == "bounds" else { return }
            let helpers = LoginRounds.parallelBound(threads: threads, seconds: seconds, inHelpers: true)
            print(String(format: "bound: %.1f hashes/s in %d helper processes (libsodium, `--hashing-helpers`' way)", helpers, threads))
            return
        }
        // `gatehouse-bench logins [seconds] [rounds]`: only issue 41's login rounds.
        if arguments.first == "logins" {
            return try await loginRoundsOnly(seconds: Double(arguments.dropFirst().first ?? "") ?? 8, rounds: Int(arguments.dropFirst(2).first ?? "") ?? 3)
        }
        // `gatehouse-bench operations [seconds]`: the audit log and metrics, off then on.
        if arguments.first == "operations" { return try await OperationsBench.run(seconds: Double(arguments.dropFirst().first ?? "") ?? 8) }
        // `gatehouse-bench signup [seconds]`: only the sign-up phase, with its own hash timing.
        if arguments.first == "signup" {
            return try await SignUpBench.run(seconds: Double(arguments.dropFirst().first ?? "") ?? 8, hashTime: HashTiming.fastest(samples: 10))
        }
        let seconds = Double(arguments.first ?? "") ?? 8
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("gatehouse-bench: \(cores) cores, \(seconds) s per load phase")

        let eventTime = FormTiming.medianEventTime()
        print(String(format: "LoginCore event with validation: %.1f µs (target ≤ 10 µs: %.2f× of it; %.0f× inside C5's 16 ms)",
                     eventTime * 1e6, eventTime / 10e-6, 0.016 / eventTime))

        let keystroke = FormTiming.medianPhoneKeystroke()
        print(String(format: "LoginCore phone keystroke (format, caret, check): %.1f µs (seed 004: < 100 ms: %.0f× inside)",
                     keystroke * 1e6, 0.1 / keystroke))

        for (name, save, load) in try await StoreTiming.measure() {
            print(String(format: "session store %@: save %.1f ms, load %.1f ms (%.0f× and %.0f× inside SC-004's 100 ms)",
                         name, save * 1000, load * 1000, 0.1 / save, 0.1 / load))
        }

        try await IdleMemory.report()

        let server = try await startServer()
        let client = LoadClient(base: server.url.absoluteString)

        // The bound is libsodium's argon2id on every core at once, measured before and after each
        // login phase of three rounds (issue 41); the medians are the figures.
        let reader = try await client.login()
        let logins = try await LoginRounds.run(client, token: reader.access, rounds: 3, seconds: seconds)[2] ?? 0
        let hashTime = HashTiming.fastest(samples: 10)
        print(String(format: "argon2id (m=19 MiB, t=2, p=1), fastest implementation on one thread: %.1f ms per hash", hashTime * 1000))

        let (known, unknown) = try await client.loginLatencies(samples: 20)
        print(String(format: "login latency, median: known email %.1f ms, unknown email %.1f ms (ratio %.2f)", known * 1000, unknown * 1000, unknown / known))

        var tokens: [LoadClient.Tokens] = []
        for _ in 0..<16 { tokens.append(try await client.login()) }
        let sessions = tokens

        // `/api/me` under a login flood is measured in each login round above.
        let me = try await client.rate(concurrency: 16, seconds: seconds) { worker in try await client.me(sessions[worker].access) }
        print(String(format: "GET /api/me/s at 16 concurrent clients: %.0f  (%.0f × logins/s)", me, me / logins))
        let graphQL = try await client.rate(concurrency: 16, seconds: seconds) { worker in try await client.graphQLMe(sessions[worker].access) }
        print(String(format: "GraphQL query { me }/s at 16 concurrent clients: %.0f  (%.2f × GET /api/me)", graphQL, graphQL / me))
        let supabase = try await client.rate(concurrency: 16, seconds: seconds) { worker in try await client.supabaseUser(sessions[worker].access) }
        print(String(format: "Supabase GET /auth/v1/user/s at 16 concurrent clients: %.0f  (%.2f × GET /api/me)", supabase, supabase / me))

        let chains = RefreshChains(tokens.map(\.refresh))
        let refreshes = try await client.rate(concurrency: 16, seconds: seconds) { worker in
            chains.set(worker, try await client.refresh(chains.get(worker)))
        }
        print(String(format: "refreshes/s at 16 concurrent clients: %.0f  (%.0f × logins/s)", refreshes, refreshes / logins))
        try await client.shutdown()
        await server.stop()
        try await SignUpBench.run(seconds: seconds, hashTime: hashTime)
        try await PhoneBench.run(seconds: seconds)
        try await GoogleBench.run()
        try await PasskeyBench.run()
        try await SecondFactorBench.run()
        // Last: it bootstraps the process's metrics, which every later server would record into.
        try await OperationsBench.run(seconds: seconds)
    }

    /// The server the load phases drive: a SQLite file, OWASP hashing, `serve`'s hashing defaults.
    static func startServer() async throws -> LoopbackServer {
        try await LoopbackServer.start(users: [(LoadClient.email, "Bench", LoadClient.password)]) {
            $0.supabaseAnonKey = LoadClient.anonKey
            $0.hashing = HashingLimits()  // the defaults `serve` runs with: one thread per core, bounded queue
            // To compare priorities (issue 41): the hashing threads' nice value, instead of the default.
            if let niceness = ProcessInfo.processInfo.environment["BENCH_HASHING_NICENESS"].flatMap(Int32.init) {
                $0.hashing.niceness = niceness
            }
            // To compare hashing in helper processes (`serve --hashing-helpers`) with the threads.
            $0.hashing.helperProcesses = ProcessInfo.processInfo.environment["BENCH_HASHING_HELPERS"] == "1"
            // One address sends every request of the load phases, and the latency phase fails on
            // purpose again and again: the limits count all of it (their writes are in every
            // figure) but never refuse.
            $0.abuse.addressLimit = 1_000_000
            $0.abuse.backoffThreshold = 1_000_000
            $0.abuse.accountFailuresPerHour = 1_000_000
            $0.trustedProxies = try! TrustedProxies(["127.0.0.0/8"])  // the flood below comes "from" many addresses
        }
    }

    /// `gatehouse-bench logins`: issue 41's login rounds on their own.
    static func loginRoundsOnly(seconds: Double, rounds: Int) async throws {
        let server = try await startServer()
        let client = LoadClient(base: server.url.absoluteString)
        print("gatehouse-bench logins: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(rounds) rounds, \(seconds) s per phase")
        let reader = try await client.login()
        try await LoginRounds.run(client, token: reader.access, rounds: rounds, seconds: seconds)
        try await client.shutdown()
        await server.stop()
    }

    /// `GET /api/me` latency from one client, alone and while 8 clients flood the login route
    /// with correct passwords from many addresses (issue 9: p99 under 5 ms during the flood).
    /// - Returns: the flood's logins per second and the loaded p99, in milliseconds.
    @discardableResult
    static func meUnderLoginFlood(_ client: LoadClient, token: String, seconds: Double) async throws -> (floodRate: Double, p99: Double) {
        let quiet = try await client.meLatencies(token, seconds: seconds)
        let flood = LoadClient(base: client.base)
        let (loaded, floodRate) = try await withThrowingTaskGroup(of: ([Double]?, Double?).self) { group in
            group.addTask {
                (nil, try await flood.rate(concurrency: 8, seconds: seconds + 1) { worker in
                    let address = "10.\(worker).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
                    _ = try await flood.login(from: address)
                })
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(500))  // the flood is under way first
                return (try await client.meLatencies(token, seconds: seconds), nil)
            }
            var latencies: [Double] = [], rate = 0.0
            for try await (some, other) in group {
                if let some { latencies = some }
                if let other { rate = other }
            }
            return (latencies, rate)
        }
        try await flood.shutdown()
        print(String(format: "GET /api/me latency alone: p50 %.2f ms, p99 %.2f ms (%d requests)", quiet.milliseconds(at: 0.5), quiet.milliseconds(at: 0.99), quiet.count))
        print(String(format: "GET /api/me latency while 8 clients flood logins (%.1f logins/s): p50 %.2f ms, p99 %.2f ms (%.1f× alone; target p99 < 5 ms: %.2f×)",
                     floodRate, loaded.milliseconds(at: 0.5), loaded.milliseconds(at: 0.99), loaded.milliseconds(at: 0.99) / quiet.milliseconds(at: 0.99), loaded.milliseconds(at: 0.99) / 5))
        return (floodRate, loaded.milliseconds(at: 0.99))
    }
}
