import Foundation

/// One text message to one phone.
public struct SMSMessage: Sendable, Equatable, Codable {
    /// E.164.
    public var to: String
    public var body: String
    /// The code alone, for senders whose receiver builds its own text (Supabase's Send SMS hook).
    public var code: String
    /// The outbox's id for it, the same on every try (the `webhook-id`).
    public var id: String?

    /// The seed 004 message with the origin-bound last line browsers read for WebOTP.
    public static func code(_ code: String, to phone: String, policy: PhonePolicy) -> SMSMessage {
        let minutes = policy.codeLifetime / 60
        let body = "\(code) is your \(policy.appName) code. It expires in \(minutes) minutes. Don't share it.\n\n@\(policy.originHost) #\(code)"
        return SMSMessage(to: phone, body: body, code: code)
    }
}
