import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238, on RFC 4226's HOTP): the codes an authenticator
/// app shows.
///
/// Gatehouse's factors use SHA-1, 6 digits and 30-second steps, what every authenticator app
/// reads from an `otpauth://` URI; the other algorithms and lengths exist for RFC 6238's own test
/// vectors. A code is accepted one step either side of now ("one step either side"), and
/// ``match(_:at:)`` names the step it matched, so a caller can refuse a step already used.
public struct TOTP: Sendable, Equatable {
    public enum Algorithm: String, Sendable, Equatable {
        case sha1 = "SHA1", sha256 = "SHA256", sha512 = "SHA512"
    }

    /// The shared secret's bytes (160 bits from the CSPRNG for a new factor).
    public let secret: [UInt8]
    public var algorithm: Algorithm = .sha1
    public var digits = 6
    /// Seconds per step.
    public var period = 30
    /// Steps accepted either side of the current one.
    public var window = 1

    public init(secret: [UInt8], algorithm: Algorithm = .sha1, digits: Int = 6, period: Int = 30, window: Int = 1) {
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.window = window
    }

    /// A new factor's secret: 20 random bytes (RFC 4226 §4's recommended 160 bits).
    public static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The step a time falls in (RFC 6238's `T`).
    public func step(at time: Date) -> Int64 {
        Int64((time.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code for one step, zero-padded to ``digits``.
    public func code(forStep step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let key = SymmetricKey(data: secret)
        let mac: [UInt8] = switch algorithm {
        case .sha1: Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: key))
        case .sha256: Array(HMAC<SHA256>.authenticationCode(for: counter, using: key))
        case .sha512: Array(HMAC<SHA512>.authenticationCode(for: counter, using: key))
        }
        // RFC 4226 §5.3: dynamic truncation.
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = (UInt32(mac[offset] & 0x7F) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }

    /// The code shown at `time`.
    public func code(at time: Date) -> String {
        code(forStep: step(at: time))
    }

    /// The step within the window whose code is `candidate`, or `nil`.
    ///
    /// Every step of the window is computed and compared in constant time, so how long this
    /// takes says nothing about which step matched or how much of the code was right.
    public func match(_ candidate: String, at time: Date) -> Int64? {
        let typed = Array(candidate.utf8)
        let now = step(at: time)
        var matched: Int64?
        for offset in -window...window {
            let step = now + Int64(offset)
            let expected = Array(code(forStep: step).utf8)
            var difference = UInt8(typed.count == expected.count ? 0 : 1)
            for index in 0..<expected.count { difference |= expected[index] ^ (index < typed.count ? typed[index] : 0) }
            if difference == 0, matched == nil { matched = step }
        }
        return matched
    }

    /// The secret in base32 without padding (RFC 4648), as an `otpauth://` URI and a person typing it read it.
    public var base32Secret: String {
        Base32.encode(secret)
    }

    /// The `otpauth://totp/{issuer}:{account}?secret=…&issuer={issuer}` URI an authenticator app
    /// scans (Google Authenticator's key-uri format).
    public func uri(issuer: String, account: String) -> String {
        var label = CharacterSet.urlPathAllowed
        label.remove(charactersIn: ":/?#[]@")
        var query = CharacterSet.urlQueryAllowed
        query.remove(charactersIn: "&=+:/?#[]@")
        let path = (issuer.addingPercentEncoding(withAllowedCharacters: label) ?? "") + ":"
            + (account.addingPercentEncoding(withAllowedCharacters: label) ?? "")
        var parameters = "secret=\(base32Secret)&issuer=" + (issuer.addingPercentEncoding(withAllowedCharacters: query) ?? "")
        if algorithm != .sha1 { parameters += "&algorithm=\(algorithm.rawValue)" }
        if digits != 6 { parameters += "&digits=\(digits)" }
        if period != 30 { parameters += "&period=\(period)" }
        return "otpauth://totp/\(path)?\(parameters)"
    }
}

/// RFC 4648 base32 (the alphabet `A–Z2–7`), without padding: how TOTP secrets are written.
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of a base32 text, ignoring case, spaces and padding; `nil` for any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: " ") && character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
