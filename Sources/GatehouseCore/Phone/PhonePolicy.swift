import Foundation

/// Phone sign-in: which regions, how codes work, and every limit on sending and guessing.
///
/// The defaults beat GoTrue (60 s codes, no attempt limit, an unkeyed SHA-224 of the code)
/// and match Twilio Verify's five tries. Every count lives in the database, so instances share it.
public struct PhonePolicy: Sendable, Equatable {
    /// Regions that may get codes, in the order the picker lists them; the first is the default.
    public var allowedRegions = ["IN"]
    /// Whether "Create Account" may register a new number.
    public var registration = true
    /// When on, an unknown number gets the same 200 as a known one and no SMS (no enumeration).
    public var silentAccountCheck = false
    /// The app's name in the message ("{code} is your {app} code…").
    public var appName = "Gatehouse"
    /// The host of the origin-bound line (`@host #code`), for WebOTP.
    public var originHost = "localhost"

    public var codeLength = 6
    /// Seconds a code stays valid.
    public var codeLifetime = 300
    /// Wrong tries that burn a code.
    public var maximumAttempts = 5
    /// Seconds before a phone may get another code.
    public var resendAfter = 60
    /// Codes per phone per ``phoneWindow`` seconds.
    public var sendsPerPhone = 3
    public var phoneWindow = 15 * 60
    /// Codes per phone per day.
    public var sendsPerPhonePerDay = 10
    /// Sends or account checks per client address per ``addressWindow`` seconds.
    public var requestsPerAddress = 10
    public var addressWindow = 15 * 60
    /// SMS the whole service may send per hour (a cost and toll-fraud ceiling).
    public var smsPerHour = 1000

    public init() {}
}
