import AsyncHTTPClient

extension HTTPClient {
    /// The client this module's requests go through (delivery providers, the breached-password
    /// range API): one that fails at once when the other side refuses the connection, so
    /// ``HTTPDelivery``'s own tries and pauses decide how long a delivery waits.
    ///
    /// async-http-client's shared client tries to establish a refused connection again until
    /// the request's deadline: each of three tries of a webhook that was down took its whole
    /// 5 s timeout. It lives as long as the process, as the shared client does.
    static let outgoing: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}
