/// Which API an app's login talks to, and where it lives on the server.
///
/// Seed 000's app uses Gatehouse's REST routes, seed 001's a GraphQL `login` mutation and seed
/// 003's Supabase Auth. The SDK picks its transport from this; the server takes its anon key.
public struct BackendConfiguration: Equatable, Sendable {
    /// The protocols the SDK speaks.
    public enum API: String, Codable, Sendable, CaseIterable {
        /// Seed 000's REST contract (`/api/auth/login`, …).
        case rest
        /// Seed 001's GraphQL mutation (`/graphql`).
        case graphql
        /// Supabase Auth, as GoTrue serves it (`/auth/v1`).
        case supabase
    }

    public var api: API
    /// The path of the API on the server; each API has a default.
    public var path: String
    /// The anon key Supabase clients send in the `apikey` header (Supabase only).
    public var anonKey: String?

    /// Creates a configuration.
    /// - Parameters:
    ///   - api: which protocol.
    ///   - path: where it is served; `nil` picks the API's default.
    ///   - anonKey: the Supabase anon key.
    public init(api: API = .rest, path: String? = nil, anonKey: String? = nil) {
        self.api = api
        self.path = path ?? Self.defaultPath(api)
        self.anonKey = anonKey
    }

    static func defaultPath(_ api: API) -> String {
        switch api {
        case .rest: ""
        case .graphql: "graphql"
        case .supabase: "auth/v1"
        }
    }
}

extension BackendConfiguration: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case api, path, anonKey }

    public init(from decoder: any Decoder) throws {
        try StrictKeys.check(decoder, allowed: CodingKeys.allCases.map(\.rawValue))
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            api: try container.decodeIfPresent(API.self, forKey: .api) ?? .rest,
            path: try container.decodeIfPresent(String.self, forKey: .path),
            anonKey: try container.decodeIfPresent(String.self, forKey: .anonKey)
        )
        if api == .supabase, anonKey?.isEmpty ?? true {
            throw DecodingError.dataCorruptedError(
                forKey: .anonKey, in: container, debugDescription: "a supabase backend needs an anonKey"
            )
        }
    }
}
