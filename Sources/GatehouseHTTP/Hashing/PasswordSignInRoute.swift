import HummingbirdCore

/// A request that signs in with a password: a `POST` to one path, with one query parameter
/// where the endpoint serves other grants too (Supabase's `/token?grant_type=password`).
///
/// Each surface names its own (``HashingThreadResponder`` answers them from a hashing thread);
/// GraphQL's sign-in is a mutation in a body like any other, so it has none.
package struct PasswordSignInRoute: Sendable, Equatable {
    /// The request's path, as the router matches it.
    package let path: String
    /// The query parameter that makes a request to `path` a password sign-in, if the path
    /// alone does not.
    package let query: Query?

    /// A query parameter's name and the value it must have.
    package struct Query: Sendable, Equatable {
        package let name: String
        package let value: String
    }

    /// A password sign-in at `path`; with `query`, only when that parameter has that value.
    package init(path: String, query: (name: String, value: String)? = nil) {
        self.path = path
        self.query = query.map { Query(name: $0.name, value: $0.value) }
    }

    /// Whether `request` is this sign-in.
    package func matches(_ request: Request) -> Bool {
        guard request.method == .post, request.uri.path == path else { return false }
        guard let query else { return true }
        return request.uri.queryParameters[Substring(query.name)].map(String.init) == query.value
    }
}
