import Foundation
import GatehouseCore
import GatehouseTestSupport
import Testing

/// `gatehouse login --phone` (seed 004) against the real server: LoginCore's copy on the
/// terminal, the code from the server's outbox, the session kept like a password sign-in's.
@Suite(.serialized) struct PhoneLoginCommandTests {
    /// A server with phone sign-in, an outbox, and the phone account +91 98765 43210 "Asha Rao".
    static func server(in folder: URL) async throws -> (LoopbackServer, String) {
        let database = folder.appendingPathComponent("db.sqlite").path
        let created = try await CLIProcess.run(
            ["users", "create", "--phone", "+919876543210", "--name", "Asha Rao", "--database", database], in: folder
        )
        #expect(created.status == 0, "\(created.stderr)")
        let outbox = folder.appendingPathComponent("outbox.jsonl").path
        let server = try await LoopbackServer.start(databasePath: database) {
            $0.phone = PhonePolicy()
            $0.sms = .outbox(path: outbox)
        }
        return (server, outbox)
    }

    static func latestCode(_ outbox: String) async throws -> String {
        struct Line: Decodable { let code: String }
        let last = try #require(try await OutboxFile.lines(outbox, atLeast: 1).last)
        return try JSONDecoder().decode(Line.self, from: Data(last.utf8)).code
    }

    @Test func S004_loginWithPhoneAsksForTheCodeAndKeepsTheSession() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, outbox) = try await Self.server(in: state)
        let environment = SessionCommandTests.environment(server, state: state)
        let terminal = try TerminalSession([CLIProcess.binary.path, "login", "--phone", "98765 43210", "--country", "IN"], environment: environment)
        #expect(await terminal.expect("Sent ✓ +91 ••••• •3210"))
        #expect(await terminal.expect("Verification code: "))
        let code = try await Self.latestCode(outbox)
        terminal.type(code == "000000" ? "111111" : "000000")
        #expect(await terminal.expect("✗ Incorrect code. Tries left: 4"))
        #expect(await terminal.expect("Verification code: "))
        terminal.type(code)
        #expect(await terminal.expect("Signed in as Asha Rao"))
        #expect(await terminal.finish() == 0)
        let whoami = try await CLIProcess.run(["whoami"], environment: environment, in: state)
        #expect(whoami.stdout.hasPrefix("Asha Rao"))
        await server.stop()
    }

    @Test func S004_badOrUnknownNumbersPrintLoginCoreCopyAndExitNonZero() async throws {
        let state = try CLIProcess.temporaryDirectory()
        let (server, _) = try await Self.server(in: state)
        let environment = SessionCommandTests.environment(server, state: state)
        let short = try await CLIProcess.run(["login", "--phone", "98765"], environment: environment, in: state)
        #expect(short.status == 1 && short.stderr.contains("✗ Please enter a valid 10-digit mobile number"))
        let unknown = try await CLIProcess.run(["login", "--phone", "91234 56789"], environment: environment, in: state)
        #expect(unknown.status == 1 && unknown.stderr.contains("✗ No account found. Create one?"))
        let mixed = try await CLIProcess.run(["login", "--phone", "98765 43210", "--email", "a@b.c"], environment: environment, in: state)
        #expect(mixed.status != 0 && mixed.stderr.contains("--phone signs in without an email or a password"))
        await server.stop()
    }
}
