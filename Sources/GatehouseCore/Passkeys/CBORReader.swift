import Foundation

/// A bounded CBOR decoder: definite lengths only, major types 0–5 and 7, limited depth and
/// size, and it says how many bytes the item used.
///
/// Authenticator data holds a CBOR public key followed by more bytes, so the reader reports
/// what it consumed rather than insisting on the end. Every length is checked against the
/// bytes that remain before anything is allocated, so a hostile length costs nothing.
public struct CBORReader {
    /// Nesting deeper than this is refused (a COSE key is depth 1, an attestation object 3).
    public static let maximumDepth = 8
    /// More items than this in one input are refused.
    public static let maximumItems = 4_096

    private let bytes: [UInt8]
    private var offset: Int
    private var items = 0

    /// A reader at `offset` in `bytes`.
    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Where the next item starts.
    public var position: Int { offset }

    /// Decodes one item that must use every byte.
    public static func decodeWhole(_ bytes: [UInt8]) throws(CBORError) -> CBORValue {
        var reader = CBORReader(bytes)
        let value = try reader.read()
        guard reader.offset == bytes.count else { throw .trailingBytes }
        return value
    }

    /// Decodes the item at the current position and moves past it.
    public mutating func read() throws(CBORError) -> CBORValue {
        try item(depth: 0)
    }

    private mutating func item(depth: Int) throws(CBORError) -> CBORValue {
        guard depth <= Self.maximumDepth else { throw .tooDeep }
        items += 1
        guard items <= Self.maximumItems else { throw .tooManyItems }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1F
        if major == 7 { return try simple(info) }
        let argument = try self.argument(info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument))
        case 3:
            guard let text = String(bytes: try take(argument), encoding: .utf8) else { throw .invalidText }
            return .text(text)
        case 4:
            // Every item takes at least one byte: a count beyond what is left is a lie.
            guard argument <= UInt64(bytes.count - offset) else { throw .truncated }
            var values: [CBORValue] = []
            values.reserveCapacity(Int(argument))
            for _ in 0..<argument { values.append(try item(depth: depth + 1)) }
            return .array(values)
        case 5:
            guard argument <= UInt64(bytes.count - offset) / 2 else { throw .truncated }
            var entries: [CBORMapEntry] = []
            for _ in 0..<argument {
                let key = try item(depth: depth + 1)
                guard !entries.contains(where: { $0.key == key }) else { throw .duplicateKey }
                entries.append(CBORMapEntry(key, try item(depth: depth + 1)))
            }
            return .map(entries)
        default:
            throw .unsupportedType(major)
        }
    }

    /// Major type 7: the four simple values WebAuthn can meet, and floats.
    private mutating func simple(_ info: UInt8) throws(CBORError) -> CBORValue {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 25: return .float(Double(Float16Bits(UInt16(try argument(info))).value))
        case 26: return .float(Double(Float(bitPattern: UInt32(try argument(info)))))
        case 27: return .float(Double(bitPattern: try argument(info)))
        default: throw .unsupportedSimple(info)
        }
    }

    /// The argument of an initial byte: the value itself below 24, else the next 1, 2, 4 or 8 bytes.
    private mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return UInt64(try byte())
        case 25: return try bigEndian(2)
        case 26: return try bigEndian(4)
        case 27: return try bigEndian(8)
        case 31: throw .indefiniteLength
        default: throw .reservedInfo(info)
        }
    }

    private mutating func bigEndian(_ count: Int) throws(CBORError) -> UInt64 {
        var value: UInt64 = 0
        for byte in try take(UInt64(count)) { value = value << 8 | UInt64(byte) }
        return value
    }

    private mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func take(_ count: UInt64) throws(CBORError) -> [UInt8] {
        guard count <= UInt64(bytes.count - offset) else { throw .truncated }
        let end = offset + Int(count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// Why CBOR could not be decoded.
public enum CBORError: Error, Equatable, Sendable {
    case truncated
    case trailingBytes
    case tooDeep
    case tooManyItems
    case indefiniteLength
    case reservedInfo(UInt8)
    case unsupportedType(UInt8)
    case unsupportedSimple(UInt8)
    case invalidText
    case duplicateKey
}

/// An IEEE 754 half-precision number, widened by hand (Float16 is not on every platform).
private struct Float16Bits {
    let bits: UInt16
    init(_ bits: UInt16) { self.bits = bits }

    var value: Float {
        let sign: Float = bits & 0x8000 != 0 ? -1 : 1
        let exponent = Int(bits >> 10 & 0x1F)
        let fraction = Float(bits & 0x3FF)
        switch exponent {
        case 0: return sign * fraction * pow(2, -24)
        case 31: return fraction == 0 ? sign * .infinity : .nan
        default: return sign * (1 + fraction / 1024) * pow(2, Float(exponent - 15))
        }
    }
}
