import Foundation

/// `gatehouse-bench target URL SECONDS [PID…]`: the three rates of an already running
/// deployment (`scripts/bench-scale.sh` points it at nginx in front of one to three instances).
///
/// The deployment must have the bench account (``LoadClient/email``) and limits roomy enough
/// for one address. With the server processes' PIDs, it also reports how many requests each
/// CPU-second of those processes served (from `/proc/PID/stat`), which is the figure to hold
/// against per-vCPU numbers when the load generator, nginx and PostgreSQL share the machine.
/// Prints one machine-readable line: `logins=… me=… refreshes=… refreshes_per_cpu_s=…`.
enum TargetBench {
    static func run(url: String, seconds: Double, pids: [Int32]) async throws {
        let client = LoadClient(base: url)
        let logins = try await client.rate(concurrency: 4, seconds: seconds) { _ in _ = try await client.login() }
        var sessions: [LoadClient.Tokens] = []
        for _ in 0..<16 { sessions.append(try await client.login()) }
        let tokens = sessions
        let me = try await client.rate(concurrency: 16, seconds: seconds) { worker in try await client.me(tokens[worker].access) }
        let chains = RefreshChains(tokens.map(\.refresh))
        let cpuBefore = cpuSeconds(pids)
        let wallStart = ContinuousClock.now
        let refreshes = try await client.rate(concurrency: 16, seconds: seconds) { worker in
            chains.set(worker, try await client.refresh(chains.get(worker)))
        }
        let wall = (ContinuousClock.now - wallStart).seconds
        let cpu = cpuSeconds(pids) - cpuBefore
        let perCPU = cpu > 0 ? refreshes * wall / cpu : 0
        print(String(format: "logins=%.1f me=%.0f refreshes=%.0f refreshes_per_cpu_s=%.0f server_cores=%.2f",
                     logins, me, refreshes, perCPU, cpu / wall))
        try await client.shutdown()
    }

    /// User plus system CPU seconds the processes have used so far.
    static func cpuSeconds(_ pids: [Int32]) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return pids.reduce(0) { total, pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let end = stat.lastIndex(of: ")") else { return total }
            // Fields after the command name: state is 3rd overall; utime and stime are 14th and 15th.
            let fields = stat[stat.index(after: end)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return total }
            return total + (user + system) / ticks
        }
    }
}
