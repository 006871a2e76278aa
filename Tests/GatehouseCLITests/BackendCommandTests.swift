import Foundation
import GatehouseTestSupport
import Testing

/// The CLI speaks the API an app file names: seed 001's GraphQL and seed 003's Supabase Auth.
@Suite(.serialized) struct BackendCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: ["001-projects", "003-peer-mentor"])
    func loginWhoamiAndLogoutOverTheExamplesBackend(example: String) async throws {
        let server = try await LoopbackServer.start(users: [("user@example.com", "Demo User", "password123")]) {
            $0.supabaseAnonKey = "peer-mentor-demo-anon-key"
        }
        let state = try CLIProcess.temporaryDirectory()
        let environment = ["GATEHOUSE_SERVER": server.url.absoluteString, "XDG_STATE_HOME": state.path]
        let config = ["--config", Self.root.appendingPathComponent("examples/\(example)/gatehouse.json").path]
        let wrong = try await CLIProcess.run(["login", "--email", "user@example.com", "--password-stdin"] + config,
                                       input: "wrong-password\n", environment: environment, in: state)
        #expect(wrong.status != 0)
        #expect((wrong.stdout + wrong.stderr).contains(example == "001-projects" ? "Invalid email or password" : "Incorrect email or password. Please try again."))
        let login = try await CLIProcess.run(["login", "--email", "user@example.com", "--password-stdin"] + config,
                                       input: "password123\n", environment: environment, in: state)
        #expect(login.status == 0 && login.stdout == "Signed in as Demo User <user@example.com>\n", "\(login.stderr)")
        #expect(try await CLIProcess.run(["whoami"] + config, environment: environment, in: state).stdout == "Demo User <user@example.com>\n")
        #expect(try await CLIProcess.run(["logout"] + config, environment: environment, in: state).status == 0)
        #expect(try await CLIProcess.run(["whoami"] + config, environment: environment, in: state).status != 0)
        await server.stop()
    }

    @Test func usersCreateTakesFirstAndLastNames() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let database = ["--database", state.appendingPathComponent("g.sqlite").path]
        let create = try await CLIProcess.run(["users", "create", "--email", "ada@example.com", "--first-name", "Ada", "--last-name", "Lovelace",
                                         "--password-stdin"] + database, input: "analytical\n", in: state)
        #expect(create.status == 0, "\(create.stderr)")
        #expect(try await CLIProcess.run(["users", "list"] + database, in: state).stdout.contains("ada@example.com\t-\tAda Lovelace"))
        let both = try await CLIProcess.run(["users", "create", "--email", "b@example.com", "--name", "B", "--first-name", "B"] + database, in: state)
        #expect(both.status == 64 && both.stderr.split(separator: "\n").count == 1)
    }
}
