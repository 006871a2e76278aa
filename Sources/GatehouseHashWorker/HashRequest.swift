#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One argon2id hash asked of a helper process, and its wire form.
///
/// The form is fixed-width little-endian: five `UInt32`s (iterations, memory in KiB, output
/// length, salt length, password length), then the salt and the password. Only libsodium's
/// case travels (one lane, version 1.3, a 16-byte salt); anything else is hashed in the server.
public struct HashRequest: Sendable, Equatable {
    public var password: [UInt8]
    public var salt: [UInt8]
    public var iterations: UInt32
    public var memoryKiB: UInt32
    public var length: UInt32

    /// The longest password a helper accepts (a request over it is malformed).
    public static let maximumPassword = 1 << 16
    /// The longest hash a helper computes.
    public static let maximumLength: UInt32 = 1024

    public init(password: [UInt8], salt: [UInt8], iterations: UInt32, memoryKiB: UInt32, length: UInt32) {
        self.password = password
        self.salt = salt
        self.iterations = iterations
        self.memoryKiB = memoryKiB
        self.length = length
    }

    /// The bytes written to the helper.
    public var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20 + salt.count + password.count)
        for field in [iterations, memoryKiB, length, UInt32(salt.count), UInt32(password.count)] {
            withUnsafeBytes(of: field.littleEndian) { bytes.append(contentsOf: $0) }
        }
        bytes += salt
        bytes += password
        return bytes
    }

    /// Reads one request; `nil` at the end of the stream or on a malformed one.
    public static func read(from descriptor: Int32) -> HashRequest? {
        guard let header = Descriptor.read(descriptor, count: 20) else { return nil }
        let fields = (0..<5).map { index in
            header[index * 4..<index * 4 + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let (saltCount, passwordCount) = (Int(fields[3]), Int(fields[4]))
        guard saltCount <= 64, passwordCount <= maximumPassword, fields[2] <= maximumLength,
              let body = Descriptor.read(descriptor, count: saltCount + passwordCount)
        else { return nil }
        return HashRequest(
            password: Array(body[saltCount...]), salt: Array(body[..<saltCount]),
            iterations: fields[0], memoryKiB: fields[1], length: fields[2]
        )
    }
}
