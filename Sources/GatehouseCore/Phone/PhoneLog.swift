import Foundation

/// How phone numbers appear in logs: the country code and the last two digits.
package enum PhoneLog {
    package static func redacted(_ e164: String) -> String {
        guard e164.count > 6 else { return "…" }
        return String(e164.prefix(3)) + "…" + String(e164.suffix(2))
    }
}
