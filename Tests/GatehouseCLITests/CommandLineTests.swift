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
        (["login", "--no-browser"], "gatehouse: --no-browser goes with --google or --provider"),
        (["login", "--provider", "Git Hub"], "gatehouse: --provider must be a provider's id (google, github, microsoft, or one from the app file), not Git Hub"),
        (["login", "--google", "--provider", "github"], "gatehouse: give --google or --provider, not both"),
        (["users", "create", "--phone", "+919123456789", "--name", "Ravi\u{7}Kumar"], "gatehouse: A name must not contain control characters"),
        (["users", "create", "--phone", "+919123456789", "--name", "\u{202E}gnp.exe"], "gatehouse: A name must not contain text-direction controls"),
        (["signup", "--password-stdin"], "gatehouse: --password-stdin needs --email and --name"),
        (["users", "reset-link", "--email", "a@b.co", "--public-url", "ftp://x"],
         "gatehouse: --public-url must be an http(s) URL such as https://auth.example.com"),
        (["users", "reset-link", "--email", "a@b.co", "--public-url", "https://x.example", "--send"],
         "gatehouse: --send needs a mail sender: --smtp-url, --email-webhook or --email-outbox"),
        (["serve", "--smtp-url", "smtp://user:pw@mail.example:587"], "gatehouse: --smtp-url must not hold the password; set GATEHOUSE_SMTP_PASSWORD"),
        (["serve", "--smtp-url", "imap://mail.example"], "gatehouse: --smtp-url must start with smtp:// (STARTTLS) or smtps:// (TLS), not imap://"),
        (["serve", "--email-from", "not an address"],
         "gatehouse: --email-from: 'not an address' is not a sender address; write \"Name <address@example.com>\" or address@example.com"),
        (["serve", "--email-outbox", "a", "--email-webhook", "http://127.0.0.1:1/x"], "gatehouse: choose one of --smtp-url, --email-webhook and --email-outbox"),
    ])
    func badArgumentsPrintOneLineAndExitNonZero(arguments: [String], message: String) async throws {
        let result = try await CLIProcess.run(arguments, in: try CLIProcess.temporaryDirectory())
        #expect(result.status != 0)
        #expect(result.stderr == message + "\n")
        #expect(result.stdout.isEmpty)
    }

    @Test func I26_serveRefusesAnAppFileWithAFixedWait() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        let app = directory.appendingPathComponent("app.json")
        try Data(#"{"login": {"messages": {"rateLimited": "Too many attempts. Try again in 15 minutes."}}}"#.utf8).write(to: app)
        let result = try await CLIProcess.run(["serve", "--port", "0", "--config", app.path], in: directory)
        #expect(result.status != 0)
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.contains("{time}") && result.stderr.contains("rateLimited"), "names the placeholder: \(result.stderr)")
    }

    @Test func H21_aSilentAccountCheckWithoutAnSMSSenderIsRefusedAtStart() async throws {
        let urbanNest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/004-urbannest/gatehouse.json").path
        let result = try await CLIProcess.run(["serve", "--port", "0", "--config", urbanNest, "--silent-account-check"], in: try CLIProcess.temporaryDirectory())
        #expect(result.status != 0)
        #expect(result.stderr == "gatehouse: --silent-account-check needs an SMS sender (--sms-webhook, --sms-kannel or --sms-outbox)\n")
    }

    @Test func promptWithoutTerminalAsksForPasswordStdin() async throws {
        let result = try await CLIProcess.run(["users", "create", "--email", "a@b.co", "--name", "A"], in: try CLIProcess.temporaryDirectory())
        #expect(result.status != 0)
        #expect(result.stderr == "gatehouse: no terminal to prompt for the password; pipe it with --password-stdin\n")
    }
}
