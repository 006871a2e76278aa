import ArgumentParser
import Foundation
import GatehouseCommands

/// The `gatehouse` command: run the auth server, manage its accounts, sign in from a terminal.
@main
struct Gatehouse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse",
        abstract: "Gatehouse: sign-in for Swift apps.",
        subcommands: [ServeCommand.self, MigrateCommand.self, BackupCommand.self, RestoreCommand.self, Users.self, Keys.self, Login.self, SignUp.self, WhoAmI.self, Status.self, Logout.self, Sessions.self, Account.self, Audit.self, Outbox.self, Phone.self, Mfa.self]
    )

    /// Runs the command; a bad argument or a failed operation prints one line and exits non-zero.
    ///
    /// `serve` hands over to `gatehouse-server` when it is installed beside this binary: the
    /// server then runs without the terminal login's HTTP client stack mapped into it.
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "serve", !arguments.contains("--help"), !arguments.contains("-h"),
           let server = ServerBinary.sibling {
            ServerBinary.exec(server, arguments: Array(arguments.dropFirst()))
        }
        await runAsTool(named: "gatehouse")
    }
}
