import ArgumentParser
import Foundation
import GatehouseClient
import GatehouseModel

extension Gatehouse {
    /// `gatehouse sessions`: the signed-in user's devices; `sessions end ID` signs one out.
    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the devices signed in to your account, or sign one out.",
            subcommands: [List.self, End.self], defaultSubcommand: List.self
        )
    }
}

extension Gatehouse.Sessions {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your signed-in devices (this one is marked *).")
        @OptionGroup var server: ServerOptions
        @Flag(help: "One JSON object per line.") var json = false

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            let devices = try await client.sessions()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                for device in devices { print(String(decoding: try encoder.encode(device), as: UTF8.self)) }
                return
            }
            print(["", "ID", "DEVICE", "ADDRESS", "LAST ACTIVE"].joined(separator: "\t"))
            for device in devices {
                print([device.current ? "*" : "", device.id, device.device, device.ipAddress ?? "-", device.lastSeenAt].joined(separator: "\t"))
            }
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign one device out by its id; its tokens stop working at once.")
        @OptionGroup var server: ServerOptions
        @Argument(help: "The session's id, as `gatehouse sessions` lists it.") var id: String

        func validate() throws {
            if id.isEmpty || id.count > 100 || id.contains(where: { $0.isWhitespace || $0 == "/" }) {
                throw ValidationError("'\(id.prefix(100))' is not a session id")
            }
        }

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            do {
                try await client.endSession(id)
            } catch AuthError.server(status: 404, _, _) {
                throw CommandFailure("no session \(id) is signed in to your account")
            }
            print("Signed out \(id)")
        }
    }
}
