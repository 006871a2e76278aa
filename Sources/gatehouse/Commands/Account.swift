import ArgumentParser
import Foundation
import GatehouseClient

extension Gatehouse {
    /// `gatehouse account`: the signed-in person's own account: `delete`, `email` (change it) and
    /// `confirm-email`.
    struct Account: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Manage your own account.", subcommands: [Delete.self, ChangeEmail.self, ConfirmEmail.self])
    }
}

extension Gatehouse.Account {
    /// `gatehouse account delete`: asks for the password (or, for an account without one, needs
    /// a sign-in of the last five minutes), confirms, and deletes.
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete your account, its sign-in methods, passkeys, two-step verification and every session. It can't be undone."
        )
        @OptionGroup var server: ServerOptions
        @Flag(help: "Read the password from standard input instead of prompting.") var passwordStdin = false
        @Flag(help: "The account has no password: a sign-in of the last five minutes proves it is you.") var noPassword = false
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func validate() throws {
            if passwordStdin, noPassword { throw ValidationError("give --password-stdin or --no-password, not both") }
        }

        func run() async throws {
            let (client, _) = try server.client()
            let user = try await RestoredSession.require(client).user
            if !yes {
                guard isatty(STDIN_FILENO) == 1, !passwordStdin else { throw ValidationError("--password-stdin needs --yes") }
                FileHandle.standardError.write(Data("Delete the account \(user.email.isEmpty ? user.id : user.email)? It can't be undone. Type DELETE: ".utf8))
                guard readLine(strippingNewline: true) == "DELETE" else { throw ValidationError("not deleted") }
            }
            let password = noPassword ? nil : try PasswordInput.read(fromStandardInput: passwordStdin, confirm: false, prompt: "Password: ")
            let name = user.email.isEmpty ? user.id : user.email
            if let due = try await client.deleteAccount(password: password) {
                print("The account \(name) will be deleted on \(due.formatted(date: .long, time: .omitted)); signing in before then keeps it.")
            } else {
                print("Deleted the account \(name)")
            }
        }
    }
}
