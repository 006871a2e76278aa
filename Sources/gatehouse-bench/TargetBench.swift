import Foundation

/// `gatehouse-bench target URL SECONDS`: the three rates of an already running deployment
/// (`scripts/bench-scale.sh` points it at nginx in front of one to three instances).
///
/// The deployment must have the bench account (``LoadClient/email``) and limits roomy enough
/// for one address. Prints one machine-readable line: `logins=… me=… refreshes=…`.
enum TargetBench {
    static func run(url: String, seconds: Double) async throws {
        let client = LoadClient(base: url)
        let logins = try await client.rate(concurrency: 4, seconds: seconds) { _ in _ = try await client.login() }
        var sessions: [LoadClient.Tokens] = []
        for _ in 0..<16 { sessions.append(try await client.login()) }
        let tokens = sessions
        let me = try await client.rate(concurrency: 16, seconds: seconds) { worker in try await client.me(tokens[worker].access) }
        let chains = RefreshChains(tokens.map(\.refresh))
        let refreshes = try await client.rate(concurrency: 16, seconds: seconds) { worker in
            chains.set(worker, try await client.refresh(chains.get(worker)))
        }
        print(String(format: "logins=%.1f me=%.0f refreshes=%.0f", logins, me, refreshes))
        try await client.shutdown()
    }
}
