import Foundation

/// One-time codes sent by SMS, shared by every instance on the database.
///
/// A phone has at most one live code: storing a new one replaces the old in one statement.
/// A guess is counted before it is compared (``claimAttempt(id:maximum:now:)``), so parallel
/// requests cannot get more tries than the limit, and a right code is consumed once.
public protocol PhoneCodeRepository: Sendable {
    /// Stores `code`, replacing any code of the same phone.
    func putPhoneCode(_ code: PhoneCodeRecord) async throws
    /// The code with this verification id, whatever its state.
    func phoneCode(id: String) async throws -> PhoneCodeRecord?
    /// The current code of a phone, whatever its state.
    func phoneCode(phone: String) async throws -> PhoneCodeRecord?
    /// Counts one try on a live code (unexpired, unused, under `maximum` tries) and returns it
    /// with the new count; `nil`, counting nothing, when the code cannot be tried.
    func claimAttempt(id: String, maximum: Int, now: Date) async throws -> PhoneCodeRecord?
    /// Marks the code used; `false` if it already was.
    func consumePhoneCode(id: String, at: Date) async throws -> Bool
    /// Removes a code (its SMS could not be sent).
    func deletePhoneCode(id: String) async throws
}

/// A code as stored: never the code itself, only its HMAC under a server secret.
public struct PhoneCodeRecord: Sendable, Equatable {
    /// The verification id the client holds (`ghv_…`).
    public var id: String
    /// E.164.
    public var phone: String
    /// What a right code does: sign in, or create the account first.
    public var purpose: PhoneCodePurpose
    /// The name for a registration.
    public var name: String?
    /// The account an ``PhoneCodePurpose/addPhone`` code adds the phone to.
    public var userID: String?
    /// Hex HMAC-SHA256 of the id and the code.
    public var codeMAC: String
    public var createdAt: Date
    public var expiresAt: Date
    public var attempts: Int
    public var consumedAt: Date?

    public init(
        id: String, phone: String, purpose: PhoneCodePurpose, name: String?, codeMAC: String, createdAt: Date, expiresAt: Date,
        attempts: Int = 0, consumedAt: Date? = nil, userID: String? = nil
    ) {
        self.userID = userID
        self.id = id
        self.phone = phone
        self.purpose = purpose
        self.name = name
        self.codeMAC = codeMAC
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.consumedAt = consumedAt
    }
}

/// What a code was sent for.
public enum PhoneCodePurpose: String, Sendable {
    case signIn = "sign_in"
    case register
    /// Adds (or changes) the phone of a signed-in account, ``PhoneCodeRecord/userID`` (issue 39);
    /// it never signs in.
    case addPhone = "add_phone"
}
