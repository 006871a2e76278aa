import Foundation

/// A sender as `--email-from` names it: `"Name <address>"` or a bare address.
public struct MailAddress: Sendable, Equatable {
    public var name: String?
    public var address: String

    /// Reads `Name <address>` or `address`; throws ``DeliveryErrorText`` when it is neither.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let open = trimmed.lastIndex(of: "<"), trimmed.hasSuffix(">") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            self.name = name.isEmpty ? nil : name
            address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        } else {
            name = nil
            address = trimmed
        }
        guard Self.isPlain(address), address.contains("@"), !address.hasPrefix("@"), !address.hasSuffix("@") else {
            throw MailAddressError(text: text)
        }
    }

    /// No spaces, angle brackets or line breaks: safe inside `MAIL FROM:<…>` and a header.
    static func isPlain(_ address: String) -> Bool {
        !address.isEmpty && !address.contains { $0.isWhitespace || $0.isNewline || "<>\"\r\n".contains($0) }
    }

    /// The header form, the name encoded when it is not ASCII (RFC 2047).
    var header: String {
        guard let name else { return address }
        return "\(MailMIME.encodedWord(name)) <\(address)>"
    }
}

/// `--email-from` is not an address.
public struct MailAddressError: Error, CustomStringConvertible {
    public let text: String
    public var description: String { "'\(text)' is not a sender address; write \"Name <address@example.com>\" or address@example.com" }
}
