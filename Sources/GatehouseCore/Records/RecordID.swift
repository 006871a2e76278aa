import Foundation

/// A new record's id: a random (version 4) UUID, lowercased.
///
/// On Linux, Foundation's `UUID()` opens, reads and closes `/dev/urandom` for each one: three
/// system calls on every sign-in. These take their 128 bits from the system's generator
/// (`getrandom`) instead, and set the version and variant bits as RFC 9562 §5.4 says, so they
/// read exactly as `UUID()`'s do.
public enum RecordID {
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64, low = generator.next() as UInt64
        high = (high & ~0xF000) | 0x4000  // version 4 in the top four bits of the seventh byte
        low = (low & ~(0b11 << 62)) | (0b10 << 62)  // variant 10 in the top two bits of the ninth byte
        return UUID(uuid: unsafeBitCast((high.bigEndian, low.bigEndian), to: uuid_t.self)).uuidString.lowercased()
    }
}
