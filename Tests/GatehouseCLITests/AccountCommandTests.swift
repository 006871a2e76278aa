import Foundation
import GatehouseCore
import GatehouseTestSupport
import LoginCore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 22 on the command line: `gatehouse signup` (LoginCore's sign-up machine on a terminal,
/// then the mailed code), and `users reset-link` for operators.
@Suite(.serialized) struct AccountCommandTests {
    /// A server with Peated's accounts and mail to an outbox in `folder`.
    static func server(in folder: URL) async throws -> (LoopbackServer, String, String) {
        let database = folder.appendingPathComponent("db.sqlite").path
        let outbox = folder.appendingPathComponent("mail.jsonl").path
        let server = try await LoopbackServer.start(databasePath: database) {
            $0.accounts = AccountOptions(signUp: true, passwordReset: true, requireVerifiedEmail: true)
            $0.email = .outbox(path: outbox)
        }
        return (server, outbox, database)
    }

    static func latestMail(_ outbox: String, count: Int = 1) async throws -> (code: String, link: String) {
        struct Line: Decodable {
            let code: String
            let link: String
        }
        let last = try #require(try await OutboxFile.lines(outbox, atLeast: count).last)
        let line = try JSONDecoder().decode(Line.self, from: Data(last.utf8))
        return (line.code, line.link)
    }

    @Test func I22_signupAsksForThePasswordTwiceThenTheMailedCodeSignsIn() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, outbox, _) = try await Self.server(in: state)
        let environment = SessionCommandTests.environment(server, state: state)
        let terminal = try TerminalSession(
            [CLIProcess.binary.path, "signup", "--name", "Ada Lovelace", "--email", "Ada@Example.com", "--code"], environment: environment
        )
        #expect(await terminal.expect("Password: "))
        terminal.type("a long and quiet river")
        #expect(await terminal.expect("Confirm password: "))
        terminal.type("a long and quiet river")
        #expect(await terminal.expect("We sent a link to ada@example.com. Open it to verify your email address."))
        #expect(await terminal.expect("Verification code: "))
        terminal.type(try await Self.latestMail(outbox).code)
        #expect(await terminal.expect("Signed in as Ada Lovelace <ada@example.com>"))
        #expect(await terminal.finish() == 0)
        let whoami = try await CLIProcess.run(["whoami"], environment: environment, in: state)
        #expect(whoami.stdout.hasPrefix("Ada Lovelace"))
        await server.stop()
    }

    @Test func I22_signupPrintsThePolicysCopyAndExitsNonZero() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, _, _) = try await Self.server(in: state)
        let environment = SessionCommandTests.environment(server, state: state)
        let common = try await CLIProcess.run(
            ["signup", "--name", "Bo", "--email", "bo@example.com", "--password-stdin"], input: "password1", environment: environment, in: state
        )
        #expect(common.status == 1 && common.stderr.contains("✗ This password is too common. Please choose another."))
        let short = try await CLIProcess.run(
            ["signup", "--name", "Bo", "--email", "bo@example.com", "--password-stdin"], input: "short", environment: environment, in: state
        )
        #expect(short.status == 1 && short.stderr.contains("✗ Password must be at least 8 characters"))
        await server.stop()
    }

    @Test func I22_resetLinkPrintsALinkAndCodeThatTheServerAccepts() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, _, database) = try await Self.server(in: state)
        let created = try await CLIProcess.run(
            ["users", "create", "--email", "cy@example.com", "--name", "Cy", "--password-stdin", "--database", database], input: "a fine long passphrase",
            in: state
        )
        #expect(created.status == 0)
        let printed = try await CLIProcess.run(
            ["users", "reset-link", "--email", "CY@example.com", "--public-url", server.url.absoluteString, "--database", database], in: state
        )
        #expect(printed.status == 0, "\(printed.stderr)")
        let lines = printed.stdout.split(separator: "\n")
        let link = try #require(lines.first.map(String.init))
        #expect(link.hasPrefix(server.url.absoluteString + "/reset-password?token=ghm_"))
        #expect(lines.count == 2 && lines[1].hasPrefix("Code: ") && lines[1].hasSuffix("(valid for 30 minutes, once)"))
        let token = try #require(URLComponents(string: link)?.queryItems?.first?.value)
        var request = URLRequest(url: server.url.appendingPathComponent("api/auth/password/reset"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONEncoder().encode(["token": token, "password": "a long and quiet river"])
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let unknown = try await CLIProcess.run(
            ["users", "reset-link", "--email", "nobody@example.com", "--public-url", "https://auth.example.com", "--database", database], in: state
        )
        #expect(unknown.status != 0 && unknown.stderr == "gatehouse: no account has the email nobody@example.com\n")
        await server.stop()
    }
}
