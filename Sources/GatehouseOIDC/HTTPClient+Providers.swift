import AsyncHTTPClient

extension HTTPClient {
    /// The client every call to a provider goes through: one that fails at once when the
    /// provider refuses the connection.
    ///
    /// async-http-client's shared client tries to establish a refused connection again and
    /// again until the request's deadline (``OIDCProviderClient``'s 5 s), so a provider that is
    /// down, or a wrong port, kept the person on the login page for 5 s before "Google sign-in
    /// failed". This one reports the refusal at once; a provider that answers slowly still has
    /// the whole timeout. It lives as long as the process, as the shared client does.
    static let providers: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
