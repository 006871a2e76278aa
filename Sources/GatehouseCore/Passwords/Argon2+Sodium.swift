import CArgon2
import CSodium

extension Argon2 {
    /// argon2id through libsodium's `crypto_pwhash_argon2id`, the fastest implementation measured
    /// on the machines we run on (it picks its AVX2 or SSSE3 code at run time).
    ///
    /// libsodium hashes one lane with a 16-byte salt and version 1.3 only: exactly what
    /// Gatehouse writes. It maps its memory for each hash and unmaps it after, so an idle
    /// server holds none. Any other stored hash (another implementation's `p=4`, a longer salt)
    /// goes to ``Argon2/Reference``.
    package enum Sodium {
        /// Whether libsodium can compute this hash.
        package static func handles(salt: [UInt8], parameters: Argon2Parameters, version: UInt32, length: Int) -> Bool {
            ready && version == 0x13 && parameters.parallelism == 1 && salt.count == Int(crypto_pwhash_argon2id_SALTBYTES)
                && length >= Int(crypto_pwhash_argon2id_BYTES_MIN) && parameters.iterations >= 1
                && UInt64(parameters.memoryKiB) * 1024 >= UInt64(crypto_pwhash_argon2id_MEMLIMIT_MIN)
        }

        package static func hash(_ password: [UInt8], salt: [UInt8], parameters: Argon2Parameters, length: Int) throws -> [UInt8] {
            guard ready else { throw Argon2Error(code: ARGON2_MEMORY_ALLOCATION_ERROR.rawValue) }
            var out = [UInt8](repeating: 0, count: length)
            let input = password.isEmpty ? [0] : password  // a pointer even for no bytes
            let status = out.withUnsafeMutableBufferPointer { out in
                input.withUnsafeBytes { bytes in
                    crypto_pwhash_argon2id(
                        out.baseAddress!, UInt64(out.count), bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                        UInt64(password.count), salt, UInt64(parameters.iterations), Int(parameters.memoryKiB) * 1024,
                        crypto_pwhash_ALG_ARGON2ID13
                    )
                }
            }
            guard status == 0 else { throw Argon2Error(code: ARGON2_MEMORY_ALLOCATION_ERROR.rawValue) }
            return out
        }

        /// `sodium_init` once per process; it picks the CPU's fastest code (without it, the
        /// portable code runs at half the speed).
        private static let ready = sodium_init() >= 0
    }
}
