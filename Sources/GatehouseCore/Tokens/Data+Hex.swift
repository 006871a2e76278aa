import Foundation

/// The lower-case hex digits, by value.
private let hexDigits = Array("0123456789abcdef".utf8)

extension Sequence<UInt8> {
    /// The bytes as lower-case hex, two digits each.
    package var hexEncoded: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Data {
    /// Bytes from lower- or upper-case hex; `nil` for anything else.
    package init?(hex: String) {
        guard hex.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
