import Foundation
import GatehouseDelivery
import GatehouseTestSupport
import Testing

/// Issue 9: the CLI remembers which server a session belongs to, and says how long to wait
/// when the server throttles a sign-in.
@Suite(.serialized) struct RememberedServerTests {
    /// A state and config folder of the test's own, and no `GATEHOUSE_SERVER`.
    static func environment(_ folder: URL) -> [String: String] {
        ["XDG_STATE_HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "GATEHOUSE_SERVER": ""]
    }

    @Test func whoamiInANewShellTalksToTheServerOfTheLastLogin() async throws {
        let server = try await LoopbackServer.start(users: [(SessionCommandTests.email, "Demo User", SessionCommandTests.password)])
        let folder = try CLIProcess.temporaryDirectory()
        let login = try await CLIProcess.run(
            ["login", "--server", server.url.absoluteString, "--email", SessionCommandTests.email, "--password-stdin"],
            input: SessionCommandTests.password, environment: Self.environment(folder), in: folder
        )
        #expect(login.status == 0)
        let whoami = try await CLIProcess.run(["whoami"], environment: Self.environment(folder), in: folder)
        #expect(whoami.stdout == "Demo User <user@example.com>\n")
        let status = try await CLIProcess.run(["status"], environment: Self.environment(folder), in: folder)
        #expect(status.stdout.hasPrefix("server: \(server.url.absoluteString)\n"))
        // --server still overrides: no session was ever made with that server.
        let other = try await CLIProcess.run(["whoami", "--server", "http://127.0.0.1:9"], environment: Self.environment(folder), in: folder)
        #expect(other.status == 1)
        #expect(other.stderr == "gatehouse: not signed in; run `gatehouse login`\n")
        let logout = try await CLIProcess.run(["logout"], environment: Self.environment(folder), in: folder)
        #expect(logout.stdout == "Signed out\n")
        await server.stop()
    }

    @Test func aThrottledLoginPrintsTheWaitAndExitsNonZero() async throws {
        // The server's time stands still, so the wait is the whole window however long the
        // second process takes to start (on a busy machine, over a second: "4:59").
        let clock = TestClock(Date())
        let server = try await LoopbackServer.start(users: [(SessionCommandTests.email, "Demo User", SessionCommandTests.password)]) {
            $0.abuse.addressLimit = 1
            $0.clock = { clock.now }
        }
        let folder = try CLIProcess.temporaryDirectory()
        let arguments = ["login", "--server", server.url.absoluteString, "--email", SessionCommandTests.email, "--password-stdin"]
        let first = try await CLIProcess.run(arguments, input: SessionCommandTests.password, environment: Self.environment(folder), in: folder)
        #expect(first.status == 0)
        let second = try await CLIProcess.run(arguments, input: SessionCommandTests.password, environment: Self.environment(folder), in: folder)
        #expect(second.status == 1)
        #expect(second.stderr.contains("✗ Too many attempts. Please try again in 5 minutes.\n✗ Try again in 5:00\n"))
        await server.stop()
    }
}
