import GatehouseCore
import GatehouseHTTP
import GatehouseModel

/// The body of `POST /api/auth/login` (seed 000 C2).
package struct LoginRequest: Decodable {
    package let email: String
    package let password: String
}

/// The body of `POST /api/auth/refresh`.
package struct RefreshRequest: Decodable {
    package let refreshToken: String

    package enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// The optional body of `POST /api/auth/logout`; `?scope=` takes precedence.
package struct LogoutRequest: Decodable {
    package let scope: String?
}
