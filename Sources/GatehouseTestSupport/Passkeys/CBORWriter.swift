import GatehouseCore

/// Encodes ``CBORValue``s the way authenticators do (shortest lengths, definite only), so the
/// software authenticator can build attestation objects and COSE keys.
public enum CBORWriter {
    public static func encode(_ value: CBORValue) -> [UInt8] {
        switch value {
        case .unsigned(let n): head(0, n)
        case .negative(let n): head(1, n)
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let entries): head(5, UInt64(entries.count)) + entries.flatMap { encode($0.key) + encode($0.value) }
        case .bool(let flag): [flag ? 0xF5 : 0xF4]
        case .null: [0xF6]
        case .undefined: [0xF7]
        case .float(let number): [0xFB] + bigEndian(number.bitPattern, 8)
        }
    }

    /// An initial byte and its argument in the fewest bytes.
    public static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xFF: return [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [type | 25] + bigEndian(argument, 2)
        case 0x10000...0xFFFF_FFFF: return [type | 26] + bigEndian(argument, 4)
        default: return [type | 27] + bigEndian(argument, 8)
        }
    }

    static func bigEndian(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}

extension CBORValue {
    /// An integer as CBOR: unsigned or negative.
    public static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}
