import ArgumentParser
import Foundation
import GatehouseCommands
import GatehouseCore
import GatehouseSQL
import Logging

extension Gatehouse {
    /// `gatehouse keys …`: the signing keys every instance shares.
    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage the access-token signing keys.",
            subcommands: [List.self, Rotate.self, Retire.self, NewKEK.self]
        )
    }
}

/// Runs `body` with the key administration of `--database`.
private func withKeys<T>(
    _ storage: DatabaseOptions, _ kek: KeyEncryptionOptions?, _ body: (KeyAdministration) async throws -> T
) async throws -> T {
    let location = try storage.location()
    let keyEncryptionKey = try kek?.resolved()
    return try await Storage.with(location, logger: Logger(label: "gatehouse")) { opened in
        try await opened.repository.migrate()
        return try await body(KeyAdministration(repository: opened.repository, keyEncryptionKey: keyEncryptionKey, location: location))
    }
}

extension Gatehouse.Keys {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List active keys, oldest first; the last one signs.")
        @OptionGroup var storage: DatabaseOptions

        func run() async throws {
            let keys = try await withKeys(storage, nil) { try await $0.list() }
            let formatter = ISO8601DateFormatter()
            for (index, key) in keys.enumerated() {
                print("\(key.kid)  \(formatter.string(from: key.createdAt))\(index == keys.count - 1 ? "  signing" : "")")
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a signing key; every server signs with it within seconds, older tokens keep verifying."
        )
        @OptionGroup var storage: DatabaseOptions
        @OptionGroup var kek: KeyEncryptionOptions

        func run() async throws {
            let kid = try await withKeys(storage, kek) { try await $0.rotate() }
            print("Added \(kid)")
        }
    }

    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop accepting tokens signed with a key.")
        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "The key's kid (see `gatehouse keys list`).") var kid: String
        @Option(help: "The servers' access-token lifetime in seconds (default 900).") var accessTokenLifetime = 900
        @Flag(help: "Retire even though tokens it signed may still be live.") var force = false

        func run() async throws {
            try await withKeys(storage, nil) {
                try await $0.retire(kid: kid, accessTokenLifetime: accessTokenLifetime, force: force)
            }
            print("Retired \(kid)")
        }
    }

    struct NewKEK: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new-kek", abstract: "Print a new key-encryption key for GATEHOUSE_KEY_ENCRYPTION_KEY."
        )
        func run() async throws {
            print(KeyEncryptionKey.generate())
        }
    }
}
