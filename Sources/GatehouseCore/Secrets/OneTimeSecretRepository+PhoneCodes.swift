import Foundation

/// Phone codes as one-time secrets: the target is the phone, the typed code is kept as its MAC,
/// and what a right code does (sign in, or register with a name) travels in `data`.
extension PhoneCodeRepository where Self: OneTimeSecretRepository {
    public func putPhoneCode(_ code: PhoneCodeRecord) async throws {
        try await putSecret(code.secret)
    }

    public func phoneCode(id: String) async throws -> PhoneCodeRecord? {
        try await secret(.phoneCode, id: id).flatMap(PhoneCodeRecord.init)
    }

    public func phoneCode(phone: String) async throws -> PhoneCodeRecord? {
        try await secret(.phoneCode, target: phone).flatMap(PhoneCodeRecord.init)
    }

    public func claimAttempt(id: String, maximum: Int, now: Date) async throws -> PhoneCodeRecord? {
        try await claimAttempt(.phoneCode, id: id, maximum: maximum, now: now).flatMap(PhoneCodeRecord.init)
    }

    public func consumePhoneCode(id: String, at date: Date) async throws -> Bool {
        try await consumeSecret(.phoneCode, id: id, at: date, unexpiredAt: nil) != nil
    }

    public func deletePhoneCode(id: String) async throws {
        try await deleteSecret(.phoneCode, id: id)
    }
}

extension PhoneCodeRecord {
    /// The fields a phone code keeps beside the store's own.
    private struct Fields: Codable {
        var purpose: String
        var name: String?
        var userID: String?
    }

    /// The record as the one store keeps it.
    package var secret: OneTimeSecret {
        OneTimeSecret(
            purpose: .phoneCode, id: id, target: phone, secretMAC: codeMAC,
            data: (try? JSONEncoder().encode(Fields(purpose: purpose.rawValue, name: name, userID: userID))) ?? Data("{}".utf8),
            attempts: attempts, createdAt: createdAt, expiresAt: expiresAt, consumedAt: consumedAt
        )
    }

    /// The phone code a stored secret holds; `nil` if it is another kind or unreadable.
    package init?(_ secret: OneTimeSecret) {
        guard secret.purpose == .phoneCode, let mac = secret.secretMAC,
              let fields = try? JSONDecoder().decode(Fields.self, from: secret.data)
        else { return nil }
        self.init(
            id: secret.id, phone: secret.target, purpose: PhoneCodePurpose(rawValue: fields.purpose) ?? .signIn, name: fields.name,
            codeMAC: mac, createdAt: secret.createdAt, expiresAt: secret.expiresAt, attempts: secret.attempts,
            consumedAt: secret.consumedAt, userID: fields.userID
        )
    }
}
