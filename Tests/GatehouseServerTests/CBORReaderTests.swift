import GatehouseCore
import GatehouseTestSupport
import Testing

/// The bounded CBOR decoder: what it accepts, what it refuses, and that random and mutated
/// input never crashes it or reads past the end.
@Suite struct CBORReaderTests {
    @Test func C01_decodesWhatAuthenticatorsSendAndReportsWhatItConsumed() throws {
        let value: CBORValue = .map([
            CBORMapEntry(.text("fmt"), .text("none")), CBORMapEntry(.int(-7), .array([.bool(true), .null, .int(1_000_000)])),
            CBORMapEntry(.text("b"), .bytes([1, 2, 3])), CBORMapEntry(.int(1), .float(1.5)),
        ])
        let bytes = CBORWriter.encode(value)
        #expect(try CBORReader.decodeWhole(bytes) == value)
        var reader = CBORReader(bytes + [0xFF, 0xFF])
        #expect(try reader.read() == value)
        #expect(reader.position == bytes.count, "it says where the item ended")
        #expect(try CBORReader.decodeWhole([0xF9, 0x3C, 0x00]) == .float(1.0), "half precision")
        #expect(try CBORReader.decodeWhole([0x38, 0x63]) == .int(-100))
    }

    @Test func C02_refusesIndefiniteLengthsTagsTrailingBytesDuplicatesAndDepth() throws {
        #expect(throws: CBORError.indefiniteLength) { try CBORReader.decodeWhole([0x9F, 0xFF]) }
        #expect(throws: CBORError.unsupportedType(6)) { try CBORReader.decodeWhole([0xC1, 0x00]) }
        #expect(throws: CBORError.trailingBytes) { try CBORReader.decodeWhole([0x00, 0x00]) }
        #expect(throws: CBORError.duplicateKey) { try CBORReader.decodeWhole([0xA2, 0x01, 0x00, 0x01, 0x00]) }
        #expect(throws: CBORError.reservedInfo(28)) { try CBORReader.decodeWhole([0x1C]) }
        #expect(throws: CBORError.unsupportedSimple(0)) { try CBORReader.decodeWhole([0xE0]) }
        #expect(throws: CBORError.invalidText) { try CBORReader.decodeWhole([0x61, 0xFF]) }
        #expect(throws: CBORError.tooDeep) { try CBORReader.decodeWhole(Array(repeating: 0x81, count: 20) + [0x00]) }
        // A length of 2^64-1 costs nothing: it is checked against what remains.
        #expect(throws: CBORError.truncated) { try CBORReader.decodeWhole([0x5B] + Array(repeating: 0xFF, count: 8)) }
        #expect(throws: CBORError.truncated) { try CBORReader.decodeWhole([0x9B] + Array(repeating: 0xFF, count: 8)) }
        #expect(throws: CBORError.tooManyItems) { try CBORReader.decodeWhole([0x99, 0x13, 0x88] + Array(repeating: 0x00, count: 5000)) }
    }

    @Test func C03_randomAndMutatedInputNeverCrashesOrReadsPastTheEnd() {
        var generator = SystemRandomNumberGenerator()
        let seeds = [
            CBORWriter.encode(.map([CBORMapEntry(.text("fmt"), .text("packed")), CBORMapEntry(.text("attStmt"), .map([])), CBORMapEntry(.text("authData"), .bytes(Array(repeating: 9, count: 60)))])),
            CBORWriter.encode(SoftwareAuthenticator.cose(.p256(.init()))),
        ]
        var decoded = 0
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                bytes = seeds[round % seeds.count]
                for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator))
                    default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
                    }
                }
            }
            var reader = CBORReader(bytes)
            if (try? reader.read()) != nil {
                decoded += 1
                #expect(reader.position <= bytes.count)
            }
            _ = try? AuthenticatorData(bytes)
            _ = try? AttestationObject(bytes)
        }
        #expect(decoded > 0, "some inputs are valid CBOR, so the decoder was exercised past the first byte")
    }
}
