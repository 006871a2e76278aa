import Foundation
import Testing

/// `gatehouse-bench`'s arguments: a mistyped phase must not start the whole benchmark.
@Suite struct BenchCommandTests {
    static let bench = CLIProcess.sibling("gatehouse-bench")

    @Test func helpPrintsTheUsageAndRunsNoPhase() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        for flag in ["--help", "-h"] {
            let result = try await CLIProcess.run([flag], in: directory, executable: Self.bench)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: gatehouse-bench [seconds]"))
            #expect(result.stdout.contains("gatehouse-bench logins [seconds] [rounds]"))
            #expect(!result.stdout.contains("cores"), "no phase started")
        }
    }

    @Test(arguments: [
        (["logns"], "unknown phase 'logns'"),
        (["logins", "6", "three"], "logins takes at most 2 numbers"),
        (["logins", "6", "3", "1"], "logins takes at most 2 numbers"),
        (["passkey", "8"], "passkey takes at most 0 numbers"),
        (["8", "3"], "the whole benchmark takes one number"),
        (["target"], "target needs a URL, seconds and process ids"),
        (["target", "http://127.0.0.1:1", "8", "server"], "target needs a URL, seconds and process ids"),
    ])
    func aBadArgumentIsRefusedInOneLineBeforeAnyPhaseRuns(arguments: [String], reason: String) async throws {
        let result = try await CLIProcess.run(arguments, in: try CLIProcess.temporaryDirectory(), executable: Self.bench)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "no phase started")
        #expect(result.stderr.hasPrefix("gatehouse-bench: \(reason)"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
