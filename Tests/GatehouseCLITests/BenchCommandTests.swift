import Foundation
import Testing

/// `gatehouse-bench`'s arguments: a mistyped phase must not start the whole benchmark.
@Suite struct BenchCommandTests {
    static let bench = CLIProcess.sibling("gatehouse-bench")

    @Test func helpPrintsTheUsageAndRunsNoPhase() async throws {
        for flag in ["--help", "-h"] {
            let result = try await CLIProcess.run([flag], in: FileManager.default.temporaryDirectory, executable: Self.bench)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: gatehouse-bench [seconds]"))
            #expect(result.stdout.contains("gatehouse-bench logins [seconds] [rounds]"))
            #expect(!result.stdout.contains("cores"), "no phase started")
        }
    }

    @Test(arguments: [
        (["logns"], "unknown phase 'logns' (gatehouse-bench --help lists them)"),
        (["logins", "6", "three"], "usage: gatehouse-bench logins [seconds] [rounds]"),
        (["logins", "6", "2.5"], "usage: gatehouse-bench logins [seconds] [rounds]"),
        (["logins", "6", "3", "1"], "usage: gatehouse-bench logins [seconds] [rounds]"),
        (["signup", "-1"], "usage: gatehouse-bench signup [seconds]"),
        (["passkey", "8"], "usage: gatehouse-bench passkey"),
        (["8", "3"], "usage: gatehouse-bench [seconds]"),
        (["0"], "usage: gatehouse-bench [seconds]"),
        (["target"], "usage: gatehouse-bench target URL SECONDS [PID ...]"),
        (["target", "http://127.0.0.1:1", "8", "server"], "usage: gatehouse-bench target URL SECONDS [PID ...]"),
    ])
    func aBadArgumentIsRefusedInOneLineBeforeAnyPhaseRuns(arguments: [String], reason: String) async throws {
        let result = try await CLIProcess.run(arguments, in: FileManager.default.temporaryDirectory, executable: Self.bench)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "no phase started")
        #expect(result.stderr == "gatehouse-bench: \(reason)\n")
    }

    @Test func aPhaseThatFailsEndsTheRunInOneLineWithStatusOne() async throws {
        // Nobody listens on port 9: the phase's first login fails.
        let result = try await CLIProcess.run(["target", "http://127.0.0.1:9", "1"], in: FileManager.default.temporaryDirectory, executable: Self.bench)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("gatehouse-bench: "), "\(result.stderr)")
        #expect(result.stderr.filter(\.isNewline).count == 1, "one line, no stack trace: \(result.stderr)")
    }
}
