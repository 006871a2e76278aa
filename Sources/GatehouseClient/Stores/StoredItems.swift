import Foundation
import LoginCore

/// A session split in two secrets, as seed 000 R7 asks: the access item (token, expiry, user)
/// and the refresh token, each stored on its own.
struct StoredItems: Equatable {
    struct AccessItem: Codable, Equatable {
        var accessToken: String
        var expiresAt: Date
        var user: SignedInUser
    }

    static let accessName = "access"
    static let refreshName = "refresh"

    var access: String
    var refresh: String

    init(_ session: Session) throws {
        let item = AccessItem(accessToken: session.accessToken, expiresAt: session.expiresAt, user: session.user)
        access = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        refresh = session.refreshToken
    }

    /// The session from both items; `nil` when either is missing or unreadable.
    static func session(access: String?, refresh: String?) -> Session? {
        guard let access, let refresh, !refresh.isEmpty,
              let item = try? JSONDecoder().decode(AccessItem.self, from: Data(access.utf8))
        else { return nil }
        return Session(accessToken: item.accessToken, refreshToken: refresh, expiresAt: item.expiresAt, user: item.user)
    }
}
