import Foundation
import GatehouseCore

/// A load phase run by wrk, the C load generator issue 41's figures were first taken with.
///
/// The bound the login phases are compared with is hashing alone, with no client on the
/// machine; the client still shares the same cores with the server. wrk spends a few
/// microseconds of CPU per request where AsyncHTTPClient in this process spends a few hundred
/// (it encodes and decodes JSON, and schedules tasks on the same threads as the server), so the
/// login phases use wrk and charge the server only for what it does. One wrk thread carries
/// every connection: its event loop keeps up with thousands of requests a second.
struct WrkLoad {
    /// The `scripts/wrk` Lua script, relative to the repository (bench.sh runs from there).
    let script: String
    let url: String
    var environment: [String: String] = [:]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Requests per second over `seconds` at `connections`; throws if any answer was not 2xx.
    func rate(connections: Int, seconds: Double) async throws -> Double {
        try await measure(connections: connections, seconds: seconds).rate
    }

    /// What one phase measured.
    struct Measure {
        var rate: Double
        /// The CPU seconds this process spent per request: the server's, when it runs here and
        /// nothing else does.
        var cpuPerRequest: Double
        /// Of those, the seconds in argon2id hashes (``HashCPUTime``).
        var hashCPUPerRequest: Double

        /// The CPU seconds per request besides the hash: the server's own cost.
        var besidesHash: Double { cpuPerRequest - hashCPUPerRequest }
    }

    /// Requests per second over `seconds` at `connections`, and the CPU this process spent per
    /// request meanwhile, in all and hashing; throws if any answer was not 2xx.
    func measure(connections: Int, seconds: Double) async throws -> Measure {
        let cpu = TargetBench.cpuSeconds([getpid()]), hashing = HashCPUTime.total.seconds
        let output = try await run(["-t1", "-c\(connections)", "-d\(Int(seconds.rounded()))s", "-s", script, url])
        let spent = TargetBench.cpuSeconds([getpid()]) - cpu, spentHashing = HashCPUTime.total.seconds - hashing
        let failed = Self.number(after: "Non-2xx or 3xx responses:", in: output) ?? 0
        guard failed == 0, let rate = Self.number(after: "Requests/sec:", in: output),
              let requests = output.split(separator: "\n").first(where: { $0.contains(" requests in ") })?
                .split(separator: " ").first.flatMap({ Double($0) }), requests > 0
        else {
            throw Failure(description: "wrk \(script) at \(connections) connections: \(failed) failed answers\n\(output)")
        }
        return Measure(rate: rate, cpuPerRequest: spent / requests, hashCPUPerRequest: spentHashing / requests)
    }

    /// Runs wrk without blocking a thread (the server in this process needs them all) and
    /// returns what it printed.
    private func run(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["wrk"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else { throw Failure(description: "wrk exited with \(status): \(output)") }
        return output
    }

    /// The number after `label` on its line of wrk's report.
    private static func number(after label: String, in output: String) -> Double? {
        guard let line = output.split(separator: "\n").first(where: { $0.contains(label) }),
              let field = line.split(separator: ":").last?.split(separator: " ").first else { return nil }
        return Double(field)
    }
}
