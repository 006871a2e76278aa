import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one HTTP request; the seam between the SDK and the network.
public protocol HTTPExecutor: Sendable {
    func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// URLSession, with the SDK's timeouts, no cookies and no cache.
///
/// A request may take 30 s in all (seed 000 C5), but a server that sends nothing for 10 s is
/// reported at once (seed 001 SC-008), so an unreachable host never keeps a user waiting long.
/// URL errors become ``AuthError/networkUnavailable`` or ``AuthError/timeout``.
public struct URLSessionExecutor: HTTPExecutor {
    let session: URLSession

    /// Creates an executor.
    /// - Parameters:
    ///   - requestTimeout: the most a whole request may take.
    ///   - idleTimeout: the most the server may stay silent.
    public init(requestTimeout: TimeInterval = 30, idleTimeout: TimeInterval = 10) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = requestTimeout
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw AuthError.malformedResponse("not an HTTP response") }
            return (data, http)
        } catch let error as URLError {
            throw error.code == .timedOut ? AuthError.timeout : AuthError.networkUnavailable
        }
    }
}
