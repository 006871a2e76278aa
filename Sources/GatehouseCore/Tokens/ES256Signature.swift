import Foundation

/// The low-S form of ES256 signatures, so every token has exactly one valid encoding.
///
/// An ECDSA signature (r, s) is equally valid as (r, n − s). Without a rule, anyone holding a
/// token can make a second, different string that verifies — harmless for authentication but
/// surprising for anything that compares or deny-lists tokens. Gatehouse signs only with
/// s ≤ n/2 and refuses the high-S twin, as Bitcoin's BIP 62 does for the same reason.
package enum ES256Signature {
    /// The order n of P-256, big-endian.
    package static let order = [UInt8](Data(hex: "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551")!)
    /// ⌊n / 2⌋, big-endian.
    package static let halfOrder = [UInt8](Data(hex: "7FFFFFFF800000007FFFFFFFFFFFFFFFDE737D56D38BCF4279DCE5617E3192A8")!)

    /// Whether a raw 64-byte signature (r ‖ s) has s ≤ n/2.
    package static func isLowS(_ signature: [UInt8]) -> Bool {
        guard signature.count == 64 else { return false }
        // Equal-length big-endian numbers compare as byte strings.
        return !halfOrder.lexicographicallyPrecedes(signature[32...])
    }

    /// The same signature in low-S form: s is replaced by n − s when it is above n/2.
    package static func normalized(_ signature: [UInt8]) -> [UInt8] {
        guard signature.count == 64, !isLowS(signature) else { return signature }
        return Array(signature[..<32]) + subtract(order, Array(signature[32...]))
    }

    /// A compact JWS whose signature is in low-S form.
    ///
    /// Only the signature, after the last dot, is read; a token already in low-S form (half
    /// of them) is returned as it is.
    package static func normalizedToken(_ token: String) -> String {
        guard let dot = token.utf8.lastIndex(of: UInt8(ascii: ".")),
              let signature = Data(base64URLEncoded: String(token[token.index(after: dot)...])).map(Array.init),
              !isLowS(signature), signature.count == 64
        else { return token }
        // The head is copied as a String: a Substring's `+` walks it Character by Character.
        return String(token[...dot]) + Data(normalized(signature)).base64URLEncoded()
    }

    /// a − b for 32-byte big-endian numbers with a ≥ b.
    package static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(a[index]) - Int(b[index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            result[index] = UInt8(difference)
        }
        return result
    }
}
