import Foundation
import LoginCore

/// Picks the transport an app's backend configuration names.
public enum AuthTransports {
    /// The transport for a backend: REST, GraphQL or Supabase Auth.
    /// - Parameters:
    ///   - backend: the app file's `"backend"` section (``BackendConfiguration``).
    ///   - server: the server's base URL; the backend's path is appended to it.
    ///   - http: how requests are sent.
    public static func make(
        _ backend: BackendConfiguration, server: URL, http: any HTTPExecutor = URLSessionExecutor()
    ) throws -> any AuthTransport {
        let url = backend.path.isEmpty ? server : server.appendingPathComponent(backend.path)
        switch backend.api {
        case .rest:
            return try RESTTransport(baseURL: url, http: http)
        case .graphql:
            return try GraphQLTransport(endpoint: url, http: http)
        case .supabase:
            guard let anonKey = backend.anonKey else { throw AuthError.malformedResponse("a Supabase backend needs an anon key") }
            return try SupabaseTransport(authURL: url, anonKey: anonKey, http: http)
        }
    }
}
