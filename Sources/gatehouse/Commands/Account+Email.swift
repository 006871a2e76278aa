import ArgumentParser
import Foundation
import GatehouseClient
import GatehouseModel

extension Gatehouse.Account {
    /// `gatehouse account email NEW`: starts an email change, then (at a terminal) asks for the
    /// code mailed to the new address.
    struct ChangeEmail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "email",
            abstract: "Change your email: the new address and your current one each get a mail, and both must confirm."
        )
        @OptionGroup var server: ServerOptions
        @Argument(help: "The new address.") var email: String
        @Flag(help: "Read the password from standard input instead of prompting.") var passwordStdin = false
        @Flag(help: "Send no password: a sign-in of the last five minutes proves it is you.") var noPassword = false

        func validate() throws {
            if passwordStdin, noPassword { throw ValidationError("give --password-stdin or --no-password, not both") }
            guard email.contains("@") else { throw ValidationError("'\(email)' is not an email address") }
        }

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            let password = noPassword ? nil : try PasswordInput.read(fromStandardInput: passwordStdin, confirm: false, prompt: "Password: ")
            let address = try await client.changeEmail(to: email, password: password)
            print("Sent a code and a link to \(address), and a link to your current address. Both must confirm.")
            guard isatty(STDIN_FILENO) == 1, !passwordStdin else {
                print("Confirm with: gatehouse account confirm-email --email \(address) --code CODE")
                return
            }
            FileHandle.standardError.write(Data("Code from \(address) (or press Return to confirm later): ".utf8))
            guard let code = readLine(strippingNewline: true)?.filter({ !$0.isWhitespace }), !code.isEmpty else { return }
            print(ConfirmEmail.describe(try await client.confirmEmailChange(.code(email: address, code: code))))
        }
    }

    /// `gatehouse account confirm-email --email ADDRESS --code CODE` (or `--token TOKEN`):
    /// confirms one address of a pending change.
    struct ConfirmEmail: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "confirm-email", abstract: "Confirm one address of a pending email change with its mail's code or link token."
        )
        @OptionGroup var server: ServerOptions
        @Option(help: "The address the code was mailed to.") var email: String?
        @Option(help: "The 6-digit code.") var code: String?
        @Option(help: "The link's token instead of a code.") var token: String?

        func validate() throws {
            switch (email, code, token) {
            case (.some, .some, nil), (nil, nil, .some): return
            default: throw ValidationError("give --email and --code, or --token")
            }
        }

        func run() async throws {
            let (client, _) = try server.client()
            let proof: EmailProof = if let token { .token(token) } else { .code(email: email ?? "", code: code ?? "") }
            print(Self.describe(try await client.confirmEmailChange(proof)))
        }

        static func describe(_ status: EmailChangeStatus) -> String {
            switch status {
            case .done: "Both addresses confirmed: your email has changed."
            case .awaitingOther: "Confirmed. Now confirm from the other address too."
            case .pending: "Waiting for both addresses to confirm."
            case .cancelled: "The email change was cancelled."
            }
        }
    }
}
