import AsyncHTTPClient
import Foundation
import GatehouseServer
import GatehouseTestSupport
import Logging
import NIOCore

/// `gatehouse-bench`: measures Gatehouse in one run and reports ratios, not just times.
///
/// It times argon2id on its own, then starts the real server (release build, SQLite file,
/// OWASP hashing) on loopback and drives it with AsyncHTTPClient. Logins/s is compared with the
/// argon2id bound, cores ÷ hash time, measured moments earlier on the same machine.
@main
struct Bench {
    static func main() async throws {
        let seconds = Double(CommandLine.arguments.dropFirst().first ?? "") ?? 8
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("gatehouse-bench: \(cores) cores, \(seconds) s per load phase")

        let eventTime = FormTiming.medianEventTime()
        print(String(format: "LoginCore event with validation: %.1f µs (%.0f× inside the 16 ms budget of C5)", eventTime * 1e6, 0.016 / eventTime))

        for (name, save, load) in try await StoreTiming.measure() {
            print(String(format: "session store %@: save %.1f ms, load %.1f ms (%.0f× and %.0f× inside SC-004's 100 ms)",
                         name, save * 1000, load * 1000, 0.1 / save, 0.1 / load))
        }

        let server = try await LoopbackServer.start(users: [(LoadClient.email, "Bench", LoadClient.password)]) {
            $0.supabaseAnonKey = LoadClient.anonKey
        }
        let client = LoadClient(base: server.url.absoluteString)

        // argon2id is timed just before and just after the login phase, so drift in this
        // machine's speed affects both sides of the ratio alike.
        var hashes = try await HashTiming.times(samples: 10)
        let logins = try await client.rate(concurrency: 2, seconds: seconds) { _ in _ = try await client.login() }
        hashes += try await HashTiming.times(samples: 10)
        let hashTime = hashes.sorted()[hashes.count / 2]
        let bound = Double(cores) / hashTime
        print(String(format: "argon2id (m=19 MiB, t=2, p=1): %.1f ms per hash (median of 20 around the login phase); bound = cores / hash time = %.1f logins/s", hashTime * 1000, bound))
        print(String(format: "logins/s at 2 concurrent clients: %.1f  (%.2f × bound)", logins, logins / bound))

        let (known, unknown) = try await client.loginLatencies(samples: 20)
        print(String(format: "login latency, median: known email %.1f ms, unknown email %.1f ms (ratio %.2f)", known * 1000, unknown * 1000, unknown / known))

        var tokens: [LoadClient.Tokens] = []
        for _ in 0..<16 { tokens.append(try await client.login()) }
        let sessions = tokens
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
    }
}
