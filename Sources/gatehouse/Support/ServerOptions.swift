import ArgumentParser
import Foundation
import GatehouseClient

/// The `--server` option the session commands share.
struct ServerOptions: ParsableArguments {
    @Option(help: "The Gatehouse server (default: $GATEHOUSE_SERVER, else http://127.0.0.1:8080).")
    var server: String = ProcessInfo.processInfo.environment["GATEHOUSE_SERVER"] ?? "http://127.0.0.1:8080"

    var url: URL {
        get throws {
            guard let url = URL(string: server), url.host != nil else { throw ValidationError("--server '\(server)' is not a URL") }
            return url
        }
    }

    func validate() throws {
        do {
            _ = try RESTTransport(baseURL: try url)
        } catch AuthError.insecureURL(let reason) {
            throw ValidationError(reason)
        }
    }

    /// A client for the server with the platform's secure store; warns when that is a file.
    func client() throws -> (client: AuthClient, store: String) {
        let url = try url
        let (store, name, warning) = SessionStores.platformDefault(server: url)
        if let warning { FileHandle.standardError.write(Data("warning: \(warning)\n".utf8)) }
        var configuration = ClientConfiguration()
        configuration.restoreBudget = 10  // a terminal can wait; an app's launch screen cannot
        return (AuthClient(transport: try RESTTransport(baseURL: url), store: store, configuration: configuration), name)
    }
}
