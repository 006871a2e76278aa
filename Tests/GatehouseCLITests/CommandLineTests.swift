import Foundation
import Testing

/// Bad arguments: one clear line on stderr and a non-zero exit; passwords never from argv.
@Suite struct CommandLineTests {
    @Test(arguments: [
        (["serve", "--port", "99999"], "gatehouse: --port must be between 0 and 65535, not 99999"),
        (["serve", "--port", "eighty"], "gatehouse: The value 'eighty' is invalid for '--port <port>'"),
        (["serve", "--log-level", "loud"], "gatehouse: --log-level 'loud' is not a log level"),
        (["users", "create", "--email", "a@b.co"], "gatehouse: a name is required: --name or --first-name must not be empty"),
        (["users", "create", "--email", "a@b.co", "--name", "A", "--password", "secret123"], "gatehouse: Unknown option '--password'"),
        (["frobnicate"], "gatehouse: Unexpected argument 'frobnicate'"),
        (["serve", "--google-issuer", "http://accounts.example.com", "--google-client-id", "web"],
         "gatehouse: --google-issuer/--google-client-id: the issuer must be an https URL (plain http only on loopback): http://accounts.example.com"),
        (["serve", "--google-client-secret", "s"], "gatehouse: Google options need --google-client-id"),
        (["serve", "--port", "0", "--google-client-id", "web"],
         "gatehouse: --port 0 with Google needs --public-url (the provider must know the callback's port)"),
        (["login", "--no-browser"], "gatehouse: --no-browser goes with --google"),
    ])
    func badArgumentsPrintOneLineAndExitNonZero(arguments: [String], message: String) async throws {
        let result = try await CLIProcess.run(arguments, in: try CLIProcess.temporaryDirectory())
        #expect(result.status != 0)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func promptWithoutTerminalAsksForPasswordStdin() async throws {
        let result = try await CLIProcess.run(["users", "create", "--email", "a@b.co", "--name", "A"], in: try CLIProcess.temporaryDirectory())
        #expect(result.status != 0)
        #expect(result.stderr == "gatehouse: no terminal to prompt for the password; pipe it with --password-stdin\n")
    }
}
