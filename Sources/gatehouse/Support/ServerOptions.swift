import ArgumentParser
import Foundation
import GatehouseClient
import LoginCore

/// The `--server` and `--config` options the session commands share.
struct ServerOptions: ParsableArguments {
    @Option(
        name: .customLong("server"),
        help: "The Gatehouse server (default: $GATEHOUSE_SERVER, else the server of the last login, else http://127.0.0.1:8080)."
    )
    var serverOption: String?

    @Option(
        name: .customLong("config"),
        help: "An app file (examples/…/gatehouse.json): the screen's copy and rules, and which API to speak (REST, GraphQL or Supabase Auth)."
    )
    var configOption: String?

    /// The server: `--server`, then `$GATEHOUSE_SERVER`, then the one the last login remembered.
    var server: String {
        serverOption ?? Self.environmentServer ?? remembered?.server ?? "http://127.0.0.1:8080"
    }

    /// The app file: `--config`, or the one remembered with the server in use.
    var config: String? {
        if let configOption { return configOption }
        guard serverOption == nil, Self.environmentServer == nil else { return nil }
        return remembered?.config
    }

    private var remembered: RememberedServer? { RememberedServer.load() }

    /// `$GATEHOUSE_SERVER`, unless unset or empty.
    private static var environmentServer: String? {
        ProcessInfo.processInfo.environment["GATEHOUSE_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// What `login` saves for the commands that follow it.
    var rememberable: RememberedServer {
        RememberedServer(server: server, config: config.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
    }

    var url: URL {
        get throws {
            guard let url = URL(string: server), url.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
            return url
        }
    }

    /// The app file, or seed 000's defaults over REST.
    var app: AppConfiguration {
        get throws {
            guard let config else { return AppConfiguration() }
            do {
                return try AppConfiguration.load(from: URL(fileURLWithPath: config))
            } catch {
                throw ValidationError("--config \(config): \(error)")
            }
        }
    }

    func validate() throws {
        do {
            _ = try AuthTransports.make(try app.backend, server: try url)
        } catch AuthError.insecureURL(let reason) {
            throw ValidationError(reason)
        }
    }

    /// A client for the server with the platform's secure store; warns when that is a file.
    func client(backend: BackendConfiguration? = nil) throws -> (client: AuthClient, store: String) {
        let url = try url
        let (store, name, warning) = SessionStores.platformDefault(server: url)
        if let warning { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        var configuration = ClientConfiguration()
        configuration.restoreBudget = 10  // a terminal can wait; an app's launch screen cannot
        let transport = try AuthTransports.make(try backend ?? app.backend, server: url)
        return (AuthClient(transport: transport, store: store, configuration: configuration), name)
    }
}
