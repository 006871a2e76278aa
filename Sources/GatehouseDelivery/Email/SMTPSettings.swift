import Foundation
import GatehouseCore

/// Where and how mail is submitted: `smtp://[user@]host[:port]` (STARTTLS) or
/// `smtps://[user@]host[:port]` (TLS from the first byte), the password from the environment.
public struct SMTPSettings: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: Sendable, Equatable {
        /// Plain first, then STARTTLS: required unless the server is on loopback.
        case startTLS
        /// TLS from the first byte (`smtps://`, usually port 465).
        case implicitTLS
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    /// The sender in `From` and `MAIL FROM`.
    public var from: MailAddress
    /// PEM certificates to trust instead of the system's (a private mail server's CA).
    public var trustRootsPath: String?
    /// Seconds one attempt may take, connection to `QUIT`.
    public var timeout: Double = 30

    /// Reads `--smtp-url`; throws ``DeliveryError`` naming what is wrong.
    public init(url text: String, password: String?, from: MailAddress, trustRootsPath: String? = nil) throws {
        guard let url = URLComponents(string: text), let scheme = url.scheme, let host = url.host, !host.isEmpty else {
            throw DeliveryError("--smtp-url must look like smtp://[user@]host:port or smtps://[user@]host:port")
        }
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .implicitTLS
        default: throw DeliveryError("--smtp-url must start with smtp:// (STARTTLS) or smtps:// (TLS), not \(scheme)://")
        }
        guard url.password == nil else { throw DeliveryError("--smtp-url must not hold the password; set GATEHOUSE_SMTP_PASSWORD") }
        guard url.path.isEmpty || url.path == "/", url.query == nil else { throw DeliveryError("--smtp-url takes no path or query") }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = url.port ?? (security == .implicitTLS ? 465 : 587)
        guard (1...65535).contains(port) else { throw DeliveryError("--smtp-url's port must be 1 to 65535") }
        username = url.user?.removingPercentEncoding
        if username != nil, (password ?? "").isEmpty { throw DeliveryError("--smtp-url names a user; set GATEHOUSE_SMTP_PASSWORD") }
        self.password = password
        self.from = from
        self.trustRootsPath = trustRootsPath
    }

    /// Whether the server is on this machine, where STARTTLS may be absent.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
