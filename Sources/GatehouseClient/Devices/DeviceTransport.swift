import Foundation
import GatehouseModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that can list the signed-in user's devices and sign one out (REST).
public protocol DeviceTransport: AuthTransport {
    /// The user's live sessions, the asking one marked current.
    func sessions(accessToken: String) async throws -> [DeviceSummary]
    /// Ends one of the user's sessions; its tokens stop working at once.
    func endSession(id: String, accessToken: String) async throws
}

extension RESTTransport: DeviceTransport {
    public func sessions(accessToken: String) async throws -> [DeviceSummary] {
        let request = try JSONExchange.request(url(paths.sessions), method: "GET", bearer: accessToken)
        return try JSONExchange.decode(DeviceList.self, from: try await send(request), expected: "sessions").sessions
    }

    public func endSession(id: String, accessToken: String) async throws {
        _ = try await send(JSONExchange.request(url(paths.sessions).appendingPathComponent(id), method: "DELETE", bearer: accessToken))
    }
}
