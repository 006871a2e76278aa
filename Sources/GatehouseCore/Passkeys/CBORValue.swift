/// A decoded CBOR data item (RFC 8949): the subset WebAuthn uses.
///
/// Integers, byte and text strings, arrays, maps, `false`, `true`, `null`, `undefined` and
/// floats. Tags (major type 6) and indefinite lengths are refused by ``CBORReader``.
public indirect enum CBORValue: Equatable, Sendable {
    case unsigned(UInt64)
    /// The negative integer `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBORValue])
    /// Entries in the order they were encoded; keys are unique.
    case map([CBORMapEntry])
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    /// The value as a signed integer, if it is one that fits.
    public var int: Int? {
        switch self {
        case .unsigned(let n): n <= UInt64(Int.max) ? Int(n) : nil
        case .negative(let n): n < UInt64(Int.max) ? -1 - Int(n) : nil
        default: nil
        }
    }

    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = self { bytes } else { nil }
    }

    public var text: String? {
        if case .text(let text) = self { text } else { nil }
    }

    public var entries: [CBORMapEntry]? {
        if case .map(let entries) = self { entries } else { nil }
    }

    /// The value under `key` in a map; `nil` for a missing key or a value that is not a map.
    public subscript(key: CBORValue) -> CBORValue? {
        entries?.first { $0.key == key }?.value
    }

    /// The value under an integer key (COSE's labels).
    public subscript(int key: Int) -> CBORValue? {
        self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }

    /// The value under a text key (WebAuthn's attestation object).
    public subscript(text key: String) -> CBORValue? {
        self[.text(key)]
    }
}

/// One key and value of a CBOR map.
public struct CBORMapEntry: Equatable, Sendable {
    public var key: CBORValue
    public var value: CBORValue

    public init(_ key: CBORValue, _ value: CBORValue) {
        self.key = key
        self.value = value
    }
}
