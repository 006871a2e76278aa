import Foundation

/// Picks the platform's secure store for a server.
public enum SessionStores {
    /// The store a session with `server` should live in, and a warning when it is not a keyring.
    ///
    /// Apple platforms: the Keychain. Linux: the Secret Service when one answers, otherwise a
    /// 0600 file in the XDG state folder, with a warning that says so.
    /// - Parameters:
    ///   - server: the server's base URL, which keys the stored items.
    ///   - environment: where `XDG_STATE_HOME` is read from.
    public static func platformDefault(
        server: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> (store: any SessionStore, name: String, warning: String?) {
        #if canImport(Security)
        return (KeychainSessionStore(service: "gatehouse " + server.absoluteString), "keychain", nil)
        #else
        #if os(Linux)
        if let keyring = SecretServiceSessionStore(server: server.absoluteString), keyring.isReachable() {
            return (keyring, "secret-service", nil)
        }
        #endif
        let file = FileSessionStore(url: FileSessionStore.defaultURL(name: fileName(for: server), environment: environment))
        return (file, "file", "No keyring is reachable; the session is kept in \(file.url.path) (mode 0600)")
        #endif
    }

    /// A file name for a server: `127.0.0.1-8080`, `auth.example.com`.
    static func fileName(for server: URL) -> String {
        let host = server.host ?? "server"
        return server.port.map { "\(host)-\($0)" } ?? host
    }
}
