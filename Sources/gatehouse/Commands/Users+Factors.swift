import ArgumentParser
import Foundation
import GatehouseCommands
import GatehouseCore

/// `gatehouse users mfa list|reset`: an account's second factors, for an operator helping
/// someone who lost both their authenticator app and their recovery codes. Each removal is
/// audited as `cli:<login name>`.
extension Gatehouse.Users {
    struct Factors: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mfa", abstract: "List or reset an account's second factors (two-step verification).",
            subcommands: [List.self, Reset.self]
        )

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Print an account's factors: id, type, status, name and when added.")
            @OptionGroup var storage: DatabaseOptions
            @OptionGroup var account: AccountOptions

            func run() async throws {
                let factors = try await storage.withAdministration { admin in
                    try await admin.factors(of: try await admin.account(account.selector))
                }
                if factors.isEmpty { print("No second factors") }
                let formatter = ISO8601DateFormatter()
                for factor in factors {
                    let name = factor.friendlyName.isEmpty ? "-" : factor.friendlyName
                    print("\(factor.id)  \(factor.kind.rawValue)  \(factor.status.rawValue)  \(name)  \(formatter.string(from: factor.createdAt))")
                }
            }
        }

        struct Reset: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Remove every factor and recovery code of an account: its next sign-in needs only its first factor."
            )
            @OptionGroup var storage: DatabaseOptions
            @OptionGroup var account: AccountOptions

            func run() async throws {
                let removed = try await storage.withAdministration { admin in
                    try await admin.resetFactors(of: try await admin.account(account.selector))
                }
                print("Removed \(removed.count) second factor\(removed.count == 1 ? "" : "s") of \(account.label)")
            }
        }
    }
}
