import Foundation
import GatehouseCore
import GatehouseModel

/// The body of `POST` and `PUT /auth/v1/admin/users[/{id}]`, as GoTrue's admin API takes it.
///
/// `user_metadata`'s name keys (`full_name` or `name`, or `first_name` and `last_name`) set the
/// account's name; Gatehouse keeps no other metadata, and ignores `app_metadata` and `role`.
package struct GoTrueAdminUserRequest: Decodable {
    package struct Metadata: Decodable {
        package let fullName: String?
        package let name: String?
        package let firstName: String?
        package let lastName: String?

        package enum CodingKeys: String, CodingKey {
            case fullName = "full_name", name, firstName = "first_name", lastName = "last_name"
        }

        /// The name the keys give, if any.
        package var personName: PersonName? {
            if let first = firstName { return PersonName(first: first, last: lastName ?? "") }
            return (fullName ?? name).map(PersonName.init(full:))
        }
    }

    package let email: String?
    package let phone: String?
    package let password: String?
    package let emailConfirm: Bool?
    package let phoneConfirm: Bool?
    package let userMetadata: Metadata?
    package let banDuration: String?

    package enum CodingKeys: String, CodingKey {
        case email, phone, password
        case emailConfirm = "email_confirm", phoneConfirm = "phone_confirm", userMetadata = "user_metadata", banDuration = "ban_duration"
    }

    /// The ban, read as GoTrue reads `ban_duration`.
    package func ban() throws -> BanDuration? {
        try banDuration.map { text in
            guard let ban = BanDuration(text) else {
                throw GatehouseError.invalidRequest("ban_duration must be a duration such as 24h or 1h30m, or none")
            }
            return ban
        }
    }

    package var change: AccountChange {
        get throws {
            AccountChange(
                email: email, phone: phone, password: password, name: userMetadata?.personName, emailConfirmed: emailConfirm,
                phoneConfirmed: phoneConfirm, ban: try ban()
            )
        }
    }
}

/// `GET /auth/v1/admin/users`: one page, as GoTrue answers it.
package struct GoTrueUserPage: Encodable {
    package let users: [GoTrueUser]
    package let aud = "authenticated"
}
