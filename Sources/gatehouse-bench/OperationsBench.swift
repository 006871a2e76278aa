import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseServer
import GatehouseTestSupport

/// Issue 24: what the audit log and the metrics cost the login path, in one run: logins/s at
/// 2 clients against the argon2id bound, and `/api/me`'s p99 while 8 clients flood logins,
/// first with both off, then with both on (the metrics are bootstrapped between the two, since
/// a process bootstraps them once).
enum OperationsBench {
    struct Figures {
        let logins: Double
        let bound: Double
        let floodRate: Double
        let p99: Double
    }

    static func run(seconds: Double) async throws {
        let off = try await measure(seconds: seconds, on: false)
        let on = try await measure(seconds: seconds, on: true)
        for (name, figures) in [("off", off), ("on ", on)] {
            print(String(format: "audit log and metrics %@: %.1f logins/s at 2 clients (%.2f × bound %.1f); GET /api/me p99 %.2f ms while 8 clients flood %.1f logins/s",
                         name, figures.logins, figures.logins / figures.bound, figures.bound, figures.p99, figures.floodRate))
        }
        print(String(format: "audit log and metrics on ÷ off: logins/bound %.2f×, flood logins/s %.2f×, /api/me p99 %.2f×",
                     (on.logins / on.bound) / (off.logins / off.bound), on.floodRate / off.floodRate, on.p99 / off.p99))
    }

    static func measure(seconds: Double, on: Bool) async throws -> Figures {
        let metrics = on ? MetricsEndpoint.bootstrap(host: "127.0.0.1", port: 0) : nil
        let server = try await LoopbackServer.start(users: [(LoadClient.email, "Bench", LoadClient.password)]) {
            $0.hashing = HashingLimits()
            $0.abuse.addressLimit = 1_000_000
            $0.abuse.backoffThreshold = 1_000_000
            $0.abuse.accountFailuresPerHour = 1_000_000
            $0.trustedProxies = try! TrustedProxies(["127.0.0.0/8"])
            $0.audit.enabled = on
            $0.metrics = metrics
        }
        let client = LoadClient(base: server.url.absoluteString)
        let before = HashTiming.fastest(samples: 10)
        let logins = try await client.rate(concurrency: 2, seconds: seconds) { _ in _ = try await client.login() }
        let hashTime = (before + HashTiming.fastest(samples: 10)) / 2
        let token = try await client.login().access
        let (floodRate, p99) = try await Bench.meUnderLoginFlood(client, token: token, seconds: seconds)
        try await client.shutdown()
        await server.stop()
        return Figures(logins: logins, bound: Double(ProcessInfo.processInfo.activeProcessorCount) / hashTime, floodRate: floodRate, p99: p99)
    }
}
