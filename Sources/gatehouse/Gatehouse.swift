import ArgumentParser
import Foundation

/// The `gatehouse` command: run the auth server and manage its accounts.
@main
struct Gatehouse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatehouse",
        abstract: "Gatehouse: email and password sign-in for Swift apps.",
        subcommands: [Serve.self, Users.self, Login.self, WhoAmI.self, Status.self, Logout.self]
    )

    /// Runs the command; a bad argument or a failed operation prints one line and exits non-zero.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code != .success else {
                print(fullMessage(for: error))
                Foundation.exit(code.rawValue)
            }
            // An ExitCode was thrown after its message was already printed.
            if !(error is ExitCode) {
                let message = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
                FileHandle.standardError.write(Data("gatehouse: \(message)\n".utf8))
            }
            Foundation.exit(code.rawValue)
        }
    }
}
