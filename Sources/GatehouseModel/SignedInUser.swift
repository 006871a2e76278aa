/// The signed-in user: seed 000's `id`, `email` and `name`, and seed 001's `firstName` and
/// `lastName`.
///
/// `name` is always the first and last name joined, so the two forms agree. Decoding accepts a
/// body with only `name` (seed 000's C2) and splits it.
public struct SignedInUser: Equatable, Sendable {
    public var id: String
    public var email: String
    public var firstName: String
    public var lastName: String

    public init(id: String, email: String, firstName: String, lastName: String) {
        let parts = PersonName(first: firstName, last: lastName)
        self.id = id
        self.email = email
        self.firstName = parts.first
        self.lastName = parts.last
    }

    /// Creates a user from a one-line name, split at its first space.
    public init(id: String, email: String, name: String) {
        let parts = PersonName(full: name)
        self.init(id: id, email: email, firstName: parts.first, lastName: parts.last)
    }

    /// The first and last name joined by a space.
    public var name: String { PersonName(first: firstName, last: lastName).full }
}

extension SignedInUser: Codable {
    enum CodingKeys: String, CodingKey { case id, email, name, firstName, lastName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(String.self, forKey: .id)
        let email = try container.decode(String.self, forKey: .email)
        if let first = try container.decodeIfPresent(String.self, forKey: .firstName) {
            let last = try container.decodeIfPresent(String.self, forKey: .lastName) ?? ""
            self.init(id: id, email: email, firstName: first, lastName: last)
        } else {
            self.init(id: id, email: email, name: try container.decodeIfPresent(String.self, forKey: .name) ?? "")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(email, forKey: .email)
        try container.encode(name, forKey: .name)
        try container.encode(firstName, forKey: .firstName)
        try container.encode(lastName, forKey: .lastName)
    }
}
