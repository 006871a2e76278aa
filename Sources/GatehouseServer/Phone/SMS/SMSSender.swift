import Foundation

/// One text message to one phone.
public struct SMSMessage: Sendable, Equatable, Codable {
    /// E.164.
    public var to: String
    public var body: String
    /// The code alone, for senders whose receiver builds its own text (Supabase's Send SMS hook).
    public var code: String

    /// The seed 004 message with the origin-bound last line browsers read for WebOTP.
    public static func code(_ code: String, to phone: String, policy: PhonePolicy) -> SMSMessage {
        let minutes = policy.codeLifetime / 60
        let body = "\(code) is your \(policy.appName) code. It expires in \(minutes) minutes. Don't share it.\n\n@\(policy.originHost) #\(code)"
        return SMSMessage(to: phone, body: body, code: code)
    }
}

/// Delivers text messages: the dev outbox, a signed webhook, or a Kannel gateway.
public protocol SMSSender: Sendable {
    /// Sends one message; throws ``SMSDeliveryError`` when the provider refuses or fails.
    func send(_ message: SMSMessage) async throws
}

/// The provider did not take the message; the user is not to blame.
public struct SMSDeliveryError: Error, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// Which sender `serve` uses.
public enum SMSDelivery: Sendable, Equatable {
    /// No SMS: phone sign-in answers 503 until one is configured.
    case none
    /// Append each message as a JSON line to a file (development, `serve --demo`).
    case outbox(path: String)
}
