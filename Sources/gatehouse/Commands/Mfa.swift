import ArgumentParser
import Foundation
import GatehouseClient
import GatehouseModel
import GatehouseQRCode
import LoginCore

extension Gatehouse {
    /// `gatehouse mfa …`: two-step verification for the signed-in account (issue 37).
    struct Mfa: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set up, list or remove two-step verification for your account.",
            subcommands: [Enrol.self, List.self, Remove.self, RecoveryCodes.self], defaultSubcommand: List.self
        )
    }
}

extension Gatehouse.Mfa {
    struct Enrol: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an authenticator app: prints its QR code and setup key, asks for its first code, prints the recovery codes once."
        )
        @OptionGroup var server: ServerOptions
        @Option(help: "A name for it, such as \"Work phone\".") var name: String?

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            let enrolment = try await client.mfa.enrol(friendlyName: name)
            if let code = QRCode(enrolment.uri) { print(code.terminal()) }
            let key = SetupKey.grouped(enrolment.secret)
            print("Scan the QR code with your authenticator app, or type the setup key:\n  \(key)\n")
            for attempt in 1...3 {
                let code = try TerminalLoginScreen.readLine(prompt: "Enter the 6-digit code the app shows: ")
                do {
                    let codes = try await client.mfa.verifyEnrolment(factorID: enrolment.factor.id, code: code)
                    print("Two-step verification is on.")
                    if !codes.isEmpty {
                        print("\nSave your recovery codes. If you lose your authenticator app, each signs you in once. They are shown only now:")
                        for code in codes { print("  \(code)") }
                    }
                    return
                } catch let error as AuthError where attempt < 3 && error.loginFailure.isWrongCode {
                    TerminalLoginScreen.printError("That code didn't work. Check your authenticator app and try again.")
                }
            }
            throw ExitCode.failure
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your second factors and the recovery codes left.")
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            let list = try await client.mfa.factors()
            if list.factors.isEmpty { print("Two-step verification is off.") }
            for factor in list.factors {
                print([factor.id, factor.type, factor.status, factor.friendlyName.isEmpty ? "-" : factor.friendlyName].joined(separator: "\t"))
            }
            if !list.factors.isEmpty { print("\(list.recoveryCodesLeft) recovery codes left") }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a second factor by its id (needs a recent second factor).")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The factor's id, as `gatehouse mfa list` prints it.") var id: String

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            try await client.mfa.unenrol(factorID: id)
            print("Removed \(id)")
        }
    }

    struct RecoveryCodes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "recovery-codes", abstract: "Print a new set of recovery codes; the old set stops working."
        )
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            for code in try await client.mfa.regenerateRecoveryCodes() { print(code) }
        }
    }
}

extension AuthFailure {
    /// A wrong or spent code, which the person may retype.
    var isWrongCode: Bool {
        switch self {
        case .codeIncorrect: true
        default: false
        }
    }
}
