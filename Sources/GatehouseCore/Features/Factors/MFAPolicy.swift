import Foundation

/// How an app offers second factors (issue 37; the app file's `mfa` block).
public struct MFAPolicy: Sendable, Equatable {
    /// Authenticator-app codes.
    public var totp = true
    /// Recovery codes beside them.
    public var recoveryCodes = true
    /// Every account must enrol before it gets an `aal2` session.
    public var required = false
    /// Factors one account may have (verified ones, and unverified ones not yet expired).
    public var maximumFactors = 10
    /// How long a factor may wait for its first code.
    public var unverifiedLifetime: TimeInterval = 600

    public init() {}
}

/// Draws a text as a QR code for a page; the composition root hands in the libqrencode adapter's.
public protocol QRCodeRenderer: Sendable {
    /// An inline SVG image of `text`, named `label` for assistive technology; `nil` if it does not fit.
    func svg(_ text: String, label: String) -> String?
}
