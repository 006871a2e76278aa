import Foundation

extension Sequence<UInt8> {
    /// The bytes as lower-case hex, two digits each.
    package var hexEncoded: String {
        map { String(format: "%02x", $0) }.joined()
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
