import Foundation
import GatehouseCore

/// One mail as RFC 5322 text: `Date`, `Message-ID`, `From`, `To` and `Subject` headers, and a
/// `multipart/alternative` body with the text part first and the HTML part second, each
/// base64 so any UTF-8 travels over any server.
package enum MailMIME {
    /// The mail's bytes, lines ended with CRLF, ready for SMTP's DATA (before dot-stuffing).
    package static func compose(
        from: MailAddress, to: String, subject: String, text: String, html: String, date: Date, messageID: String
    ) -> String {
        let boundary = "=_gatehouse_" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        var lines = [
            "Date: \(rfc5322Date(date))",
            "Message-ID: <\(messageID)>",
            "From: \(from.header)",
            "To: <\(to)>",
            "Subject: \(encodedWord(subject))",
            "MIME-Version: 1.0",
            "Auto-Submitted: auto-generated",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
        ]
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            lines += [
                "--\(boundary)",
                "Content-Type: \(type); charset=utf-8",
                "Content-Transfer-Encoding: base64",
                "",
            ]
            lines += wrapped(Data(body.utf8).base64EncodedString())
        }
        lines.append("--\(boundary)--")
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A header value as an RFC 2047 encoded word when it holds anything but printable ASCII.
    package static func encodedWord(_ value: String) -> String {
        let plain = value.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        return plain ? value : "=?utf-8?B?\(Data(value.utf8).base64EncodedString())?="
    }

    /// A new `Message-ID` on the sender's domain.
    package static func messageID(domain: String) -> String {
        "\(UUID().uuidString.lowercased())@\(domain)"
    }

    /// `Wed, 25 Nov 2026 09:34:48 +0000`.
    package static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }

    private static func wrapped(_ base64: String) -> [String] {
        var lines: [String] = []
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(76)))
            rest = rest.dropFirst(76)
        }
        return lines
    }

    /// SMTP's transparency rule (RFC 5321 4.5.2): a line that starts with a dot gets another.
    package static func dotStuffed(_ mail: String) -> String {
        mail.split(separator: "\r\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
            .joined(separator: "\r\n")
    }
}
