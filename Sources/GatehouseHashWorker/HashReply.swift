/// A helper's answer: the hash, or nothing when libsodium could not compute it.
///
/// On the wire: one status byte (0 hashed, 1 failed), then the hash's `length` bytes if hashed.
public enum HashReply {
    /// The bytes written back for `hash`.
    public static func encoded(_ hash: [UInt8]?) -> [UInt8] {
        hash.map { [0] + $0 } ?? [1]
    }

    /// Reads the answer to a request for `length` bytes: `.some(nil)` when the helper could not
    /// hash, `nil` when the stream ended or failed.
    public static func read(from descriptor: Int32, length: Int) -> [UInt8]?? {
        guard let status = Descriptor.read(descriptor, count: 1) else { return nil }
        guard status[0] == 0 else { return .some(nil) }
        guard let hash = Descriptor.read(descriptor, count: length) else { return nil }
        return .some(hash)
    }
}
