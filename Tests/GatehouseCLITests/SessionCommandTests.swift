import Foundation
import GatehouseTestSupport
import Testing

/// `gatehouse login`, `whoami`, `status` and `logout` against the real server on loopback, with
/// the keyring the test script provides (seed 001 US1.4, US3.3, US3.4; seed 000 A13, A17).
@Suite(.serialized) struct SessionCommandTests {
    static let email = "user@example.com"
    static let password = "password123"

    static func server() async throws -> LoopbackServer {
        try await LoopbackServer.start(users: [(email, "Demo User", password)])
    }

    /// Options that point a command at `server`, with its own state folder.
    static func environment(_ server: LoopbackServer, state: URL) -> [String: String] {
        ["GATEHOUSE_SERVER": server.url.absoluteString, "XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path]
    }

    @Test func US1_4_terminalLoginHidesThePasswordAndTheSessionSurvivesNewProcesses() async throws {
        let server = try await Self.server()
        let state = try CLIProcess.temporaryDirectory()
        let environment = Self.environment(server, state: state)
        let terminal = try TerminalSession([CLIProcess.binary.path, "login"], environment: environment)
        #expect(await terminal.expect("Email: "))
        terminal.type(Self.email)
        #expect(await terminal.expect("Password: "))
        terminal.type(Self.password)
        #expect(await terminal.expect("Signed in as Demo User <user@example.com>"))
        #expect(await terminal.finish() == 0)
        #expect(!terminal.screen.contains(Self.password), "the password is never echoed")

        let whoami = try await CLIProcess.run(["whoami"], environment: environment, in: state)
        #expect(whoami.stdout == "Demo User <user@example.com>\n")
        let status = try await CLIProcess.run(["status"], environment: environment, in: state)
        #expect(status.stdout.contains("user: Demo User <user@example.com>"))
        #expect(status.stdout.contains("session: validated"))
        if ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_KEYRING"] == "1" {
            #expect(status.stdout.contains("store: secret-service"))
        }
        #expect(try await CLIProcess.run(["logout"], environment: environment, in: state).stdout == "Signed out\n")
        let after = try await CLIProcess.run(["whoami"], environment: environment, in: state)
        #expect(after.status == 1)
        #expect(after.stderr == "gatehouse: not signed in; run `gatehouse login`\n")
        await server.stop()
    }

    @Test func A13_terminalLoginPrintsLoginCoreMessagesAndLetsTheUserRetry() async throws {
        let server = try await Self.server()
        let state = try CLIProcess.temporaryDirectory()
        let terminal = try TerminalSession([CLIProcess.binary.path, "login"], environment: Self.environment(server, state: state))
        #expect(await terminal.expect("Email: "))
        terminal.type("notanemail")
        #expect(await terminal.expect("✗ Please enter a valid email"))
        #expect(await terminal.expect("Email: "))
        terminal.type(Self.email)
        #expect(await terminal.expect("Password: "))
        terminal.type("short")
        #expect(await terminal.expect("✗ Password must be at least 8 characters"))
        #expect(await terminal.expect("Password: "))
        terminal.type("wrong-password")
        #expect(await terminal.expect("✗ Invalid email or password"))
        #expect(await terminal.expect("Password: "))
        terminal.type(Self.password)
        #expect(await terminal.expect("Signed in as Demo User"))
        #expect(await terminal.finish() == 0)
        await server.stop()
    }

    @Test func withoutAKeyringTheSessionGoesToAnOwnerOnlyFileWithAWarning() async throws {
        let server = try await Self.server()
        let state = try CLIProcess.temporaryDirectory()
        var environment = Self.environment(server, state: state)
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let login = try await CLIProcess.run(
            ["login", "--email", Self.email, "--password-stdin"], input: Self.password, environment: environment, in: state
        )
        #expect(login.status == 0)
        let file = state.appendingPathComponent("gatehouse/127.0.0.1-\(server.port).json")
        #expect(login.stderr.contains("warning: No keyring is reachable; the session is kept in \(file.path) (mode 0600)"))
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try await CLIProcess.run(["whoami"], environment: environment, in: state).stdout == "Demo User <user@example.com>\n")
        await server.stop()
    }

    /// Two terminals signed in as one user: this one (the keyring) and another (a file store).
    static func twoTerminals() async throws -> (LoopbackServer, URL, [String: String], URL, [String: String]) {
        let server = try await Self.server()
        let state = try CLIProcess.temporaryDirectory()
        let environment = Self.environment(server, state: state)
        _ = try await CLIProcess.run(["login", "--email", Self.email, "--password-stdin"], input: Self.password, environment: environment, in: state)
        let otherState = try CLIProcess.temporaryDirectory()
        var other = Self.environment(server, state: otherState)
        other["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        _ = try await CLIProcess.run(["login", "--email", Self.email, "--password-stdin"], input: Self.password, environment: other, in: otherState)
        return (server, state, environment, otherState, other)
    }

    @Test func US3_4_logoutOthersKeepsThisTerminalSignedIn() async throws {
        let (server, state, environment, otherState, other) = try await Self.twoTerminals()

        #expect(try await CLIProcess.run(["logout", "--others"], environment: environment, in: state).stdout == "Signed out every other device\n")
        #expect(try await CLIProcess.run(["whoami"], environment: environment, in: state).status == 0)
        let ended = try await CLIProcess.run(["whoami"], environment: other, in: otherState)
        #expect(ended.status == 1)
        await server.stop()
    }

    @Test func I24_sessionsListsBothTerminalsAndEndSignsTheOtherOut() async throws {
        let (server, state, environment, otherState, other) = try await Self.twoTerminals()

        let listed = try await CLIProcess.run(["sessions", "--json"], environment: environment, in: state)
        let rows = listed.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.count == 2 && rows.filter { $0["current"] as? Bool == true }.count == 1)
        let otherID = try #require(rows.first { $0["current"] as? Bool == false }?["id"] as? String)
        let table = try await CLIProcess.run(["sessions"], environment: environment, in: state)
        #expect(table.stdout.hasPrefix("\tID\tDEVICE\tADDRESS\tLAST ACTIVE\n") && table.stdout.contains("*\t"))

        #expect(try await CLIProcess.run(["sessions", "end", otherID], environment: environment, in: state).stdout == "Signed out \(otherID)\n")
        #expect(try await CLIProcess.run(["whoami"], environment: other, in: otherState).status == 1)
        #expect(try await CLIProcess.run(["whoami"], environment: environment, in: state).status == 0)
        let again = try await CLIProcess.run(["sessions", "end", otherID], environment: environment, in: state)
        #expect(again.status == 1 && again.stderr == "gatehouse: no session \(otherID) is signed in to your account\n")
        let bad = try await CLIProcess.run(["sessions", "end", "a b"], environment: environment, in: state)
        #expect(bad.status != 0 && bad.stderr.split(separator: "\n").count == 1)
        await server.stop()
    }

    @Test func badSessionArgumentsAreOneLine() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        let insecure = try await CLIProcess.run(["whoami", "--server", "http://example.com"], in: directory)
        #expect(insecure.stderr == "gatehouse: http://example.com must use https (plain http is allowed only on loopback)\n")
        let both = try await CLIProcess.run(["logout", "--all", "--others"], in: directory)
        #expect(both.stderr == "gatehouse: --all and --others cannot be used together\n")
        let stdinWithoutEmail = try await CLIProcess.run(["login", "--password-stdin"], in: directory)
        #expect(stdinWithoutEmail.stderr == "gatehouse: --password-stdin needs --email\n")
    }
}
