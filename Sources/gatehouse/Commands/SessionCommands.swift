import ArgumentParser
import Foundation
import GatehouseClient
import LoginCore

extension Gatehouse {
    /// `gatehouse whoami`: restores the session, refreshing it if needed, and prints the user.
    struct WhoAmI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Print the signed-in user.")
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let (client, _) = try server.client()
            let session = try await RestoredSession.require(client)
            print("\(session.user.name) <\(session.user.email)>")
        }
    }

    /// `gatehouse status`: the server, the user, the token's expiry and the store in use.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the session's state.")
        @OptionGroup var server: ServerOptions

        func run() async throws {
            let (client, store) = try server.client()
            let restored = await client.restore()
            var lines = ["server: \(server.server)", "store: \(store)"]
            switch restored {
            case .signedIn(let session), .offline(let session):
                let validated = if case .signedIn = restored { "validated" } else { "offline, not validated" }
                lines += [
                    "user: \(session.user.name) <\(session.user.email)>",
                    "access token expires: \(ISO8601DateFormatter().string(from: session.expiresAt))",
                    "session: \(validated)",
                ]
            case .ended(let reason): lines.append("session: ended (\(reason.rawValue))")
            case .signedOut: lines.append("session: signed out")
            case .storeLocked: lines.append("session: the keyring is locked")
            }
            print(lines.joined(separator: "\n"))
        }
    }

    /// `gatehouse logout`: ends this session (or all, or all others) on the server and here.
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign out.")
        @OptionGroup var server: ServerOptions
        @Flag(help: "Sign out every device.") var all = false
        @Flag(help: "Sign out every other device and stay signed in here.") var others = false

        func validate() throws {
            if all, others { throw ValidationError("--all and --others cannot be used together") }
        }

        func run() async throws {
            let (client, _) = try server.client()
            _ = try await RestoredSession.require(client)
            try await client.signOut(scope: all ? .global : others ? .others : .local)
            print(all ? "Signed out every device" : others ? "Signed out every other device" : "Signed out")
        }
    }
}

/// The restored session, or a one-line reason and a failing exit.
enum RestoredSession {
    static func require(_ client: AuthClient) async throws -> Session {
        switch await client.restore() {
        case .signedIn(let session): return session
        case .offline:
            do {
                return try await client.session()
            } catch let error as AuthError where error.isTransient {
                throw CommandFailure("the server cannot be reached; the session is kept")
            }
        case .ended: throw CommandFailure(MessageCatalogue().text(.sessionExpired))
        case .signedOut: throw CommandFailure("not signed in; run `gatehouse login`")
        case .storeLocked: throw CommandFailure("the keyring is locked")
        }
    }
}

/// An operation that failed (exit 1), as opposed to a bad argument (exit 64).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
