import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension AuthClient {
    /// Sends a request to your API with the Bearer token; on a 401 it refreshes once and retries once.
    ///
    /// Concurrent requests share one refresh (seed 001 FR-007, US3.1).
    public func authorizedData(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let session = try await self.session()
        let first = try await http.data(for: Self.authorize(request, with: session))
        guard first.1.statusCode == 401 else { return first }
        let refreshed = try await manager.refresh(replacing: session)
        return try await http.data(for: Self.authorize(request, with: refreshed))
    }

    static func authorize(_ request: URLRequest, with session: Session) -> URLRequest {
        var request = request
        request.setValue("Bearer \(session.accessToken)", forHTTPHeaderField: "Authorization")
        return request
    }
}
