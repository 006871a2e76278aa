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
        let attemptsLeft: Int?

        enum CodingKeys: String, CodingKey {
            case error, message
            case attemptsLeft = "attempts_left"
        }
    }

    static func map(_ response: HTTPURLResponse, _ data: Data) -> AuthError {
        let status = response.statusCode
        let decoded = try? JSONDecoder().decode(Body.self, from: data)
        if status == 429 {
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
            if decoded?.error == ServerErrorCode.resendTooSoon.rawValue { return .resendTooSoon(retryAfter: max(1, retryAfter ?? 1)) }
            return .rateLimited(retryAfter: retryAfter)
        }
        if status == 503, decoded?.error == ServerErrorCode.smsUnavailable.rawValue {
            return .server(status: status, code: .smsUnavailable, message: decoded?.message ?? "HTTP 503")
        }
        if status >= 500 { return .serverError(status: status) }
        guard let body = decoded else {
            return .server(status: status, code: ServerErrorCode(rawValue: "http_\(status)"), message: "HTTP \(status)")
        }
        let code = ServerErrorCode(rawValue: body.error)
        switch code {
        case .invalidCredentials: return .invalidCredentials
        case .accountLocked: return .accountLocked
        case .emailNotVerified: return .emailNotVerified
        case .invalidCode: return .invalidCode(attemptsLeft: body.attemptsLeft)
        default: return .server(status: status, code: code, message: body.message ?? "HTTP \(status)")
        }
    }
}
