import CSodium
import CSodiumMemory
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// argon2id through libsodium's `crypto_pwhash_argon2id`: one lane, version 1.3, a 16-byte salt.
///
/// Given a scratch, the hash runs in its memory, lent to libsodium for the call (`CSodiumMemory`),
/// instead of 19 MiB mapped, faulted in and unmapped again: 1.5 to 1.8 times the hashes per
/// second on two cores here (`gatehouse-bench bounds`). Without one, or where the loan cannot
/// be taken (not Linux), libsodium maps its own.
public enum SodiumArgon2id {
    /// The raw hash, or `nil` when libsodium cannot compute it (out of memory, out of range).
    public static func hash(
        _ password: [UInt8], salt: [UInt8], iterations: UInt32, memoryKiB: UInt32, length: Int, scratch: Argon2Scratch? = nil
    ) -> [UInt8]? {
        guard ready, salt.count == Int(crypto_pwhash_argon2id_SALTBYTES), length >= Int(crypto_pwhash_argon2id_BYTES_MIN)
        else { return nil }
        let bytes = Int(memoryKiB) * 1024
        let lent = lends ? scratch?.borrow(bytes) : nil
        if let lent { gatehouse_memory_lend(lent, bytes) }
        defer { if lent != nil { gatehouse_memory_end_loan() } }
        var out = [UInt8](repeating: 0, count: length)
        let input = password.isEmpty ? [0] : password  // a pointer even for no bytes
        let status = out.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBytes { bytes in
                crypto_pwhash_argon2id(
                    out.baseAddress!, UInt64(out.count), bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                    UInt64(password.count), salt, UInt64(iterations), Int(memoryKiB) * 1024, crypto_pwhash_ALG_ARGON2ID13
                )
            }
        }
        return status == 0 ? out : nil
    }

    /// Whether libsodium takes these parameters.
    public static func handles(saltCount: Int, iterations: UInt32, memoryKiB: UInt32, length: Int) -> Bool {
        ready && saltCount == Int(crypto_pwhash_argon2id_SALTBYTES) && length >= Int(crypto_pwhash_argon2id_BYTES_MIN)
            && iterations >= 1 && UInt64(memoryKiB) * 1024 >= UInt64(crypto_pwhash_argon2id_MEMLIMIT_MIN)
    }

    /// Whether this process lends libsodium memory: `CSodiumMemory`'s `mmap` is the one its
    /// calls reach, and `GATEHOUSE_SODIUM_LOAN` is not `off` (libsodium as it ships, for a
    /// comparison or should the loan ever misbehave).
    public static let lends = gatehouse_memory_interposes() == 1
        && getenv("GATEHOUSE_SODIUM_LOAN").map { String(cString: $0) } != "off"

    /// `sodium_init` once per process; it picks the CPU's fastest code (without it, the
    /// portable code runs at half the speed).
    public static let ready = sodium_init() >= 0
}
