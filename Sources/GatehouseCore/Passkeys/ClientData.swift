import Foundation

/// The browser's collected client data (WebAuthn §5.8.1), parsed from its JSON bytes.
///
/// Unknown members are allowed (the specification says so); the ones Gatehouse checks must
/// have the right types.
public struct ClientData: Sendable, Decodable {
    public var type: String
    public var challenge: String
    public var origin: String
    public var crossOrigin: Bool?
    public var topOrigin: String?

    /// The largest client data accepted, in bytes.
    public static let maximumLength = 4_096

    /// Client data that names a member twice is refused: Foundation would keep the first
    /// `challenge` or `origin` where a browser or another verifier keeps the last.
    public static func parse(_ bytes: [UInt8]) throws(PasskeyFailure) -> ClientData {
        guard bytes.count <= maximumLength, !DuplicateKeyCheck.hasDuplicateKey(bytes),
              let data = try? JSONDecoder().decode(ClientData.self, from: Data(bytes))
        else {
            throw .malformed("clientDataJSON")
        }
        return data
    }

    /// The checks of §7.1 steps 7–10 and §7.2 steps 11–14 that need no stored state.
    /// - Parameters:
    ///   - ceremony: `webauthn.create` or `webauthn.get`.
    ///   - origins: the exact origins allowed.
    public func check(ceremony: PasskeyCeremony, origins: Set<String>) throws(PasskeyFailure) {
        guard type == ceremony.clientDataType else { throw .wrongType }
        guard origins.contains(origin) else { throw .originNotAllowed }
        guard crossOrigin != true, topOrigin == nil else { throw .crossOrigin }
    }
}

/// The two WebAuthn ceremonies.
public enum PasskeyCeremony: String, Sendable, Codable {
    case registration
    case authentication

    var clientDataType: String {
        switch self {
        case .registration: "webauthn.create"
        case .authentication: "webauthn.get"
        }
    }
}
