import CSodium

/// argon2id through libsodium's `crypto_pwhash_argon2id`: one lane, version 1.3, a 16-byte salt.
public enum SodiumArgon2id {
    /// The raw hash, or `nil` when libsodium cannot compute it (out of memory, out of range).
    public static func hash(_ password: [UInt8], salt: [UInt8], iterations: UInt32, memoryKiB: UInt32, length: Int) -> [UInt8]? {
        guard ready, salt.count == Int(crypto_pwhash_argon2id_SALTBYTES), length >= Int(crypto_pwhash_argon2id_BYTES_MIN)
        else { return nil }
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

    /// `sodium_init` once per process; it picks the CPU's fastest code (without it, the
    /// portable code runs at half the speed).
    public static let ready = sodium_init() >= 0
}
