import Foundation
import GatehouseModel

extension AuthClient {
    /// The signed-in user's devices: one live session each, this one marked `current`.
    public func sessions() async throws -> [DeviceSummary] {
        let devices = try deviceTransport()
        return try await retryingOnce { try await devices.sessions(accessToken: $0.accessToken) }
    }

    /// Signs one of the user's devices out: its refresh token and access tokens stop working at
    /// once. Ending this device's own session is a sign-out: the stored session is removed too.
    public func endSession(_ id: String) async throws {
        let devices = try deviceTransport()
        let session = try await retryingOnce { session in
            try await devices.endSession(id: id, accessToken: session.accessToken)
            return session
        }
        if id == session.sessionID { try await manager.end(.user) }
    }

    /// Calls with a valid session; on a 401 refreshes once and calls again, as
    /// ``authorizedData(for:)`` does, so a session ended elsewhere ends here too.
    private func retryingOnce<T>(_ call: (Session) async throws -> T) async throws -> T {
        let session = try await self.session()
        do {
            return try await call(session)
        } catch AuthError.server(status: 401, _, _) {
            return try await call(try await manager.refresh(replacing: session))
        }
    }

    private func deviceTransport() throws -> any DeviceTransport {
        guard let devices = transport as? any DeviceTransport else {
            throw AuthError.server(status: 0, code: "unsupported", message: "This backend cannot list devices")
        }
        return devices
    }
}

extension Session {
    /// The server's id for this session: the access token's `sid` claim, read and not verified
    /// (only the server's verification counts; this only tells which device list row is ours).
    var sessionID: String? {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Data(base64URL: String(parts[1])),
              let claims = try? JSONDecoder().decode([String: JSONClaim].self, from: payload),
              case .string(let sid)? = claims["sid"]
        else { return nil }
        return sid
    }
}

/// A JWT claim's value, as far as ``Session/sessionID`` needs it.
private enum JSONClaim: Decodable {
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
        self = (try? decoder.singleValueContainer().decode(String.self)).map(JSONClaim.string) ?? .other
    }
}
