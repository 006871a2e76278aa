import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP plumbing the transports share: JSON requests out, checked token responses in.
struct JSONExchange: Sendable {
    let http: any HTTPExecutor

    /// Builds a request: JSON body when given, `Accept: application/json`, extra headers.
    static func request(
        _ url: URL, method: String = "POST", body: (any Encodable)? = nil, bearer: String? = nil,
        headers: [String: String] = [:], timeout: TimeInterval? = nil
    ) throws -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let timeout { request.timeoutInterval = timeout }
        return request
    }

    /// Sends a request; a non-2xx answer becomes the error `failure` makes of it.
    func send(_ request: URLRequest, failure: (HTTPURLResponse, Data) -> AuthError) async throws -> Data {
        let (data, response) = try await http.data(for: request)
        guard (200..<300).contains(response.statusCode) else { throw failure(response, data) }
        return data
    }

    /// Decodes a body, reporting what was expected when it does not fit.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, expected: String) throws -> T {
        guard let value = try? JSONDecoder().decode(T.self, from: data) else {
            throw AuthError.malformedResponse("the \(expected) is not in the expected form")
        }
        return value
    }
}

extension TokenResponse {
    /// The response, if its access token is a JWT and it carries a refresh token and a lifetime.
    func checked() throws -> TokenResponse {
        guard accessToken.split(separator: ".", omittingEmptySubsequences: false).count == 3,
              !refreshToken.isEmpty, expiresIn > 0
        else { throw AuthError.malformedResponse("the server sent a malformed token") }
        return self
    }
}
