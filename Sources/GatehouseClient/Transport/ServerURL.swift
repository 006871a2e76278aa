import Foundation

/// Checks that credentials only travel over HTTPS, loopback excepted (seed 000 A17, C4).
enum ServerURL {
    static func validated(_ url: URL) throws -> URL {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            throw AuthError.insecureURL("\(url.absoluteString) is not an absolute http(s) URL")
        }
        if scheme == "https" { return url }
        if scheme == "http", isLoopback(host) { return url }
        throw AuthError.insecureURL("\(url.absoluteString) must use https (plain http is allowed only on loopback)")
    }

    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }
}
