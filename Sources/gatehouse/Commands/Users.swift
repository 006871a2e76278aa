import ArgumentParser
import Foundation
import GatehouseCommands
import GatehouseCore
import LoginCore

extension Gatehouse {
    /// `gatehouse users …`: manage accounts in the database.
    struct Users: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage accounts.",
            subcommands: [
                Create.self, List.self, Show.self, Update.self, Lock.self, Unlock.self, Ban.self, Unban.self, Delete.self, SetPassword.self,
                ResetLinkCommand.self, Factors.self,
            ]
        )
    }
}

/// The options that name an existing account: exactly one of `--email`, `--phone` (with
/// `--country` for a national number) and `--id`.
struct AccountOptions: ParsableArguments {
    @Option(help: "The account's email.")
    var email: String?
    @Option(help: "The account's mobile number: +919876543210, or national with --country.")
    var phone: String?
    @Option(help: "The region a national --phone is dialled in (ISO 3166, e.g. IN).")
    var country: String?
    @Option(help: "The account's id, as `users create` prints it and the API shows it.")
    var id: String?

    func validate() throws {
        if [email, phone, id].compactMap({ $0 }).count != 1 { throw ValidationError("give exactly one of --email, --phone and --id") }
        if country != nil, phone == nil { throw ValidationError("--country goes with --phone") }
    }

    var selector: AccountSelector {
        if let id { return .id(id) }
        if let phone { return .phone(phone, region: country ?? "") }
        return .email(email ?? "")
    }

    /// How the account is named in what the command prints: as the operator named it.
    var label: String { email ?? phone ?? id ?? "" }
}

/// A command that does one thing to one account and says so.
protocol AccountAction: AsyncParsableCommand {
    var storage: DatabaseOptions { get }
    var account: AccountOptions { get }
    /// The past-tense verb printed before the email.
    var done: String { get }
    func perform(_ admin: UserAdministration, account: AccountSelector) async throws
}

extension AccountAction {
    func run() async throws {
        try await storage.withAdministration { try await perform($0, account: account.selector) }
        print("\(done) \(account.label)")
    }
}

extension Gatehouse.Users {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account: by email (the password is prompted for) or by phone (no password)."
        )
        @OptionGroup var storage: DatabaseOptions
        @Option(help: "The account's email.") var email: String?
        @Option(help: "The account's mobile number: +919876543210, or national with --country.") var phone: String?
        @Option(help: "The region a national --phone is dialled in (ISO 3166, e.g. IN).") var country: String?
        @Option(help: "The account holder's full name; split at the first space into first and last name.")
        var name: String?
        @Option(help: "The first name (instead of --name).") var firstName: String?
        @Option(help: "The last name (with --first-name).") var lastName: String?
        @Flag(help: "Read the password from standard input instead of prompting.") var passwordStdin = false
        @Flag(help: "Accept a password the sign-up policy refuses (too short or too common), for demo and test data.")
        var allowWeakPassword = false
        @Flag(help: "Mark the email as never verified (imported or self-registered accounts); a verified Google sign-in with it takes the account over.")
        var unverifiedEmail = false

        var personName: PersonName {
            name.map(PersonName.init(full:)) ?? PersonName(first: firstName ?? "", last: lastName ?? "")
        }

        func validate() throws {
            if name != nil, firstName != nil || lastName != nil {
                throw ValidationError("give either --name or --first-name/--last-name, not both")
            }
            if personName.first.isEmpty { throw ValidationError("a name is required: --name or --first-name must not be empty") }
            if (email == nil) == (phone == nil) { throw ValidationError("give exactly one of --email and --phone") }
            if country != nil, phone == nil { throw ValidationError("--country goes with --phone") }
            if phone != nil, passwordStdin { throw ValidationError("a phone account has no password") }
            if phone != nil, unverifiedEmail { throw ValidationError("--unverified-email goes with --email") }
        }

        func run() async throws {
            if let phone {
                let (user, e164) = try await storage.withAdministration { admin in
                    let user = try await admin.create(phone: phone, region: country ?? "", name: personName.full)
                    return (user, try await admin.phone(of: user))
                }
                print("Created \(e164 ?? phone) (\(user.id))")
                return
            }
            let email = email ?? ""
            let password = try PasswordInput.read(fromStandardInput: passwordStdin, confirm: true)
            let user = try await storage.withAdministration(weakPasswords: allowWeakPassword) {
                try await $0.create(email: email, name: personName, password: password, emailVerified: !unverifiedEmail)
            }
            print("Created \(user.email ?? email) (\(user.id))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts.")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            let users = try await storage.withAdministration { admin in
                var rows: [(UserRecord, String?)] = []
                for user in try await admin.list() { rows.append((user, try await admin.phone(of: user))) }
                return rows
            }
            let formatter = ISO8601DateFormatter()
            print(["EMAIL", "PHONE", "NAME", "STATUS", "CREATED"].joined(separator: "\t"))
            for (user, phone) in users {
                let status = !user.isLocked(at: Date()) ? "active" : user.lockedUntil == nil ? "locked" : "banned"
                print([user.email ?? "-", phone ?? "-", user.name, status, formatter.string(from: user.createdAt)].joined(separator: "\t"))
            }
        }
    }

    struct Lock: AccountAction {
        static let configuration = CommandConfiguration(abstract: "Lock an account and end its sessions.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        var done: String { "Locked" }
        func perform(_ admin: UserAdministration, account: AccountSelector) async throws { try await admin.setLocked(true, account: account) }
    }

    struct Unlock: AccountAction {
        static let configuration = CommandConfiguration(abstract: "Unlock an account.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        var done: String { "Unlocked" }
        func perform(_ admin: UserAdministration, account: AccountSelector) async throws { try await admin.setLocked(false, account: account) }
    }

    struct Delete: AccountAction {
        static let configuration = CommandConfiguration(abstract: "Delete an account and its sessions.")
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        var done: String { "Deleted" }
        func perform(_ admin: UserAdministration, account: AccountSelector) async throws { try await admin.delete(account: account) }
    }

    struct SetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-password", abstract: "Replace an account's password and end its sessions."
        )
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var account: AccountOptions
        @Flag(help: "Read the password from standard input instead of prompting.") var passwordStdin = false
        @Flag(help: "Accept a password the sign-up policy refuses (too short or too common), for demo and test data.")
        var allowWeakPassword = false

        func run() async throws {
            let password = try PasswordInput.read(fromStandardInput: passwordStdin, confirm: true)
            try await storage.withAdministration(weakPasswords: allowWeakPassword) { try await $0.setPassword(password, account: account.selector) }
            print("Password changed for \(account.label); its sessions have ended")
        }
    }
}
