import LoginCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an error response into an ``AuthError``.
enum ResponseError {
    struct Body: Decodable {
        let error: String
        let message: String?
    }

    static func map(_ response: HTTPURLResponse, _ data: Data) -> AuthError {
        let status = response.statusCode
        if status == 429 {
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
            return .rateLimited(retryAfter: retryAfter)
        }
        if status >= 500 { return .serverError(status: status) }
        guard let body = try? JSONDecoder().decode(Body.self, from: data) else {
            return .server(status: status, code: ServerErrorCode(rawValue: "http_\(status)"), message: "HTTP \(status)")
        }
        let code = ServerErrorCode(rawValue: body.error)
        switch code {
        case .invalidCredentials: return .invalidCredentials
        case .accountLocked: return .accountLocked
        case .emailNotVerified: return .emailNotVerified
        default: return .server(status: status, code: code, message: body.message ?? "HTTP \(status)")
        }
    }
}
