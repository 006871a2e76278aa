import Foundation
import GatehouseModel

/// The server the last `gatehouse login` signed in to, and its app file, so that `whoami`,
/// `status` and `logout` in a new shell talk to the server the session belongs to (like
/// `gh`'s hosts file). Kept in `$XDG_CONFIG_HOME/gatehouse/current.json` (mode 0600).
struct RememberedServer: Codable, Equatable {
    var server: String
    /// The absolute path of the `--config` app file used at sign-in, if any.
    var config: String?

    static func fileURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return URL(fileURLWithPath: base).appendingPathComponent("gatehouse/current.json")
    }

    /// The remembered server, or `nil` when none was saved or the file is unreadable.
    static func load() -> RememberedServer? {
        guard let data = try? Data(contentsOf: fileURL()) else { return nil }
        return try? JSONDecoder().decode(RememberedServer.self, from: data)
    }

    /// Saves this as the current server; a failure only warns, the session itself is stored.
    func save() {
        let url = Self.fileURL()
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
            try OwnerOnlyFile.replace(atPath: url.path, contents: try JSONEncoder().encode(self))
        } catch {
            FileHandle.standardError.write(Data("warning: could not remember the server in \(url.path)\n".utf8))
        }
    }
}
