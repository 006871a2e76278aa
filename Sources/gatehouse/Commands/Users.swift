import ArgumentParser
import Foundation
import GatehouseServer

extension Gatehouse {
    /// `gatehouse users …`: manage accounts in the database.
    struct Users: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage accounts.",
            subcommands: [Create.self, List.self, Lock.self, Unlock.self, Delete.self, SetPassword.self]
        )
    }
}

/// The `--email` option that names an existing account.
struct AccountOptions: ParsableArguments {
    @Option(help: "The account's email.")
    var email: String
}

extension Gatehouse.Users {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account; the password is prompted for.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @Option(help: "The account holder's name.") var name: String
        @Flag(help: "Read the password from standard input instead of prompting.") var passwordStdin = false

        func validate() throws {
            if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--name must not be empty") }
        }

        func run() async throws {
            let password = try PasswordInput.read(fromStandardInput: passwordStdin, confirm: true)
            let user = try await storage.withAdministration {
                try await $0.create(email: account.email, name: name, password: password)
            }
            print("Created \(user.email) (\(user.id))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts.")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            let users = try await storage.withAdministration { try await $0.list() }
            let formatter = ISO8601DateFormatter()
            print(["EMAIL", "NAME", "STATUS", "CREATED"].joined(separator: "\t"))
            for user in users {
                let status = user.lockedAt == nil ? "active" : "locked"
                print([user.email, user.name, status, formatter.string(from: user.createdAt)].joined(separator: "\t"))
            }
        }
    }

    struct Lock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lock an account and end its sessions.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions

        func run() async throws {
            try await storage.withAdministration { try await $0.setLocked(true, email: account.email) }
            print("Locked \(account.email)")
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unlock an account.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions

        func run() async throws {
            try await storage.withAdministration { try await $0.setLocked(false, email: account.email) }
            print("Unlocked \(account.email)")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an account and its sessions.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions

        func run() async throws {
            try await storage.withAdministration { try await $0.delete(email: account.email) }
            print("Deleted \(account.email)")
        }
    }

    struct SetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-password", abstract: "Replace an account's password and end its sessions."
        )
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Read the password from standard input instead of prompting.") var passwordStdin = false

        func run() async throws {
            let password = try PasswordInput.read(fromStandardInput: passwordStdin, confirm: true)
            try await storage.withAdministration { try await $0.setPassword(password, email: account.email) }
            print("Password changed for \(account.email); its sessions have ended")
        }
    }
}
