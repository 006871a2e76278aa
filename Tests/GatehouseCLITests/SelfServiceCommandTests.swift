import Foundation
import GatehouseCore
import GatehouseTestSupport
import LoginCore
import Testing

/// Issue 39 on the command line: `gatehouse login --email-code` (LoginCore's email-code machine
/// on a terminal) and `gatehouse account delete`.
@Suite(.serialized) struct SelfServiceCommandTests {
    static func server(in folder: URL) async throws -> (LoopbackServer, String) {
        let outbox = folder.appendingPathComponent("mail.jsonl").path
        let server = try await LoopbackServer.start(
            users: [("user@example.com", "Demo User", "password123")], databasePath: folder.appendingPathComponent("db.sqlite").path
        ) {
            $0.accounts = AccountOptions(signUp: true, passwordReset: true, requireVerifiedEmail: true)
            $0.signInMethods = SignInMethods(methods: [.email, .emailCode])
            $0.email = .outbox(path: outbox)
        }
        return (server, outbox)
    }

    @Test func I39_loginWithAMailedCodeRetypesAWrongOneThenSignsIn() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, outbox) = try await Self.server(in: state)
        let environment = SessionCommandTests.environment(server, state: state)
        let terminal = try TerminalSession([CLIProcess.binary.path, "login", "--email-code"], environment: environment)
        #expect(await terminal.expect("Email: "))
        terminal.type("User@Example.com")
        #expect(await terminal.expect("We sent a 6-digit code to user@example.com. It expires in 10 minutes."))
        #expect(await terminal.expect("Verification code: "))
        let code = try await AccountCommandTests.latestMail(outbox).code
        terminal.type(code == "000000" ? "111111" : "000000")
        #expect(await terminal.expect("✗ Incorrect code. Tries left: 4"))
        #expect(await terminal.expect("Verification code: "))
        terminal.type(code)
        #expect(await terminal.expect("Signed in as Demo User <user@example.com>"))
        #expect(await terminal.finish() == 0)
        await server.stop()
    }

    @Test func I39_accountDeleteNeedsThePasswordAndThenTheAccountIsGone() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, _) = try await Self.server(in: state)
        let environment = SessionCommandTests.environment(server, state: state)
        _ = try await CLIProcess.run(
            ["login", "--email", "user@example.com", "--password-stdin"], input: "password123", environment: environment, in: state
        )
        let unconfirmed = try await CLIProcess.run(["account", "delete", "--password-stdin"], input: "password123", environment: environment, in: state)
        #expect(unconfirmed.status != 0 && unconfirmed.stderr.contains("--password-stdin needs --yes"))
        let wrong = try await CLIProcess.run(["account", "delete", "--password-stdin", "--yes"], input: "nope nope", environment: environment, in: state)
        #expect(wrong.status != 0)
        let deleted = try await CLIProcess.run(["account", "delete", "--password-stdin", "--yes"], input: "password123", environment: environment, in: state)
        #expect(deleted.status == 0 && deleted.stdout.contains("Deleted the account user@example.com"), "\(deleted.stderr)")
        let again = try await CLIProcess.run(
            ["login", "--email", "user@example.com", "--password-stdin"], input: "password123", environment: environment, in: state
        )
        #expect(again.status != 0)
        await server.stop()
    }

    @Test func I39_accountEmailChangesTheAddressOnceBothConfirm() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, outbox) = try await Self.server(in: state)
        let environment = SessionCommandTests.environment(server, state: state)
        _ = try await CLIProcess.run(
            ["login", "--email", "user@example.com", "--password-stdin"], input: "password123", environment: environment, in: state
        )
        let bad = try await CLIProcess.run(["account", "email", "not-an-address", "--no-password"], environment: environment, in: state)
        #expect(bad.status != 0 && bad.stderr.contains("is not an email address") && bad.stderr.split(separator: "\n").count <= 2)
        let asked = try await CLIProcess.run(["account", "email", "cli.new@example.com", "--password-stdin"], input: "password123", environment: environment, in: state)
        #expect(asked.status == 0 && asked.stdout.contains("confirm-email --email cli.new@example.com"), "\(asked.stderr)")
        _ = try await AccountCommandTests.latestMail(outbox, count: 2)
        struct Line: Decodable {
            let to: String
            let code: String
        }
        let mails = try OutboxFile.lines(outbox).map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        for (index, mail) in mails.enumerated() {
            let confirmed = try await CLIProcess.run(["account", "confirm-email", "--email", mail.to, "--code", mail.code], environment: environment, in: state)
            let expected = index == 0 ? "Now confirm from the other address too." : "Both addresses confirmed: your email has changed."
            #expect(confirmed.status == 0 && confirmed.stdout.contains(expected), "\(confirmed.stdout)")
        }
        let moved = try await CLIProcess.run(
            ["login", "--email", "cli.new@example.com", "--password-stdin"], input: "password123", environment: environment, in: state
        )
        #expect(moved.status == 0, "\(moved.stderr)")
        await server.stop()
    }
}
