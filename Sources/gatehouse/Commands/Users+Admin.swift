import ArgumentParser
import Foundation
import GatehouseCommands
import GatehouseCore
import LoginCore

/// The admin API's operations on the command line (`/auth/v1/admin/users`): ban, unban,
/// update and show, by `--id` (or `--email`, `--phone`), each audited as `cli:<login name>`.
extension Gatehouse.Users {
    struct Ban: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ban an account for a time and end its sessions: sign-in and refresh are refused until it ends."
        )
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @Option(name: .customLong("for"), help: "How long: 24h, 1h30m, 90s (Go's duration syntax, as GoTrue's ban_duration).")
        var duration: String

        func validate() throws {
            guard case .seconds? = BanDuration(duration) else {
                throw ValidationError("--for '\(duration.prefix(40))' is not a duration such as 24h or 1h30m")
            }
        }

        func run() async throws {
            guard let ban = BanDuration(duration) else { return }
            try await storage.withAdministration { try await $0.ban(account.selector, for: ban) }
            print("Banned \(account.label) for \(duration)")
        }
    }

    struct Unban: AccountAction {
        static let configuration = CommandConfiguration(abstract: "Lift a ban or a lock.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        var done: String { "Unbanned" }
        func perform(_ admin: UserAdministration, account: AccountSelector) async throws { try await admin.ban(account, for: .lift) }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change an account's email, phone, name or password.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @Option(help: "The new email.") var newEmail: String?
        @Option(help: "The new mobile number, in full (+…).") var newPhone: String?
        @Option(help: "The new full name.") var name: String?
        @Flag(help: "Mark the (new) email verified.") var verifyEmail = false
        @Flag(help: "Mark the (new) phone verified.") var verifyPhone = false
        @Flag(help: "Read a new password from standard input (ends the account's sessions).") var passwordStdin = false
        @Flag(help: "Accept a password the sign-up policy refuses (too short or too common), for demo and test data.")
        var allowWeakPassword = false

        func validate() throws {
            if newEmail == nil, newPhone == nil, name == nil, !verifyEmail, !verifyPhone, !passwordStdin {
                throw ValidationError("nothing to change: give --new-email, --new-phone, --name, --verify-email, --verify-phone or --password-stdin")
            }
        }

        func run() async throws {
            let password = passwordStdin ? try PasswordInput.read(fromStandardInput: true, confirm: false) : nil
            let change = AccountChange(
                email: newEmail, phone: newPhone, password: password, name: name.map(PersonName.init(full:)),
                emailConfirmed: verifyEmail ? true : nil, phoneConfirmed: verifyPhone ? true : nil
            )
            let user = try await storage.withAdministration(weakPasswords: allowWeakPassword) {
                try await $0.update(account.selector, with: change)
            }
            print("Updated \(user.email ?? account.label) (\(user.id))")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one account: its ways in, its lock and its dates.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "As one JSON object.") var json = false

        func run() async throws {
            let (user, identities) = try await storage.withAdministration { admin in
                let user = try await admin.account(account.selector)
                return (user, try await admin.identities(of: user))
            }
            let formatter = ISO8601DateFormatter()
            var fields: [(String, String)] = [("id", user.id), ("name", user.name), ("created_at", formatter.string(from: user.createdAt))]
            for identity in identities {
                fields.append((identity.provider.rawValue, identity.provider == .passkey ? "yes" : identity.subject))
                fields.append(("\(identity.provider.rawValue)_verified", identity.verifiedAt == nil ? "no" : "yes"))
            }
            let status = !user.isLocked(at: Date()) ? "active" : user.lockedUntil.map { "banned until \(formatter.string(from: $0))" } ?? "locked"
            fields.append(("status", status))
            if json {
                let object = Dictionary(fields, uniquingKeysWith: { first, _ in first })
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
            } else {
                for (name, value) in fields { print("\(name): \(value)") }
            }
        }
    }
}
