import CArgon2
import GatehouseHashWorker

extension Argon2 {
    /// argon2id through libsodium's `crypto_pwhash_argon2id`, the fastest implementation measured
    /// on the machines we run on (it picks its AVX2 or SSSE3 code at run time).
    ///
    /// libsodium hashes one lane with a 16-byte salt and version 1.3 only: exactly what
    /// Gatehouse writes. On a hashing thread it hashes in the thread's ``Argon2Scratch``, lent to
    /// it for the call, which the thread gives back after 30 s without a hash; elsewhere it maps
    /// its own memory for the hash. On a hashing thread with a helper process (``HashWorker``)
    /// the hash runs there, in the helper's own reused memory. Any other stored hash (another
    /// implementation's `p=4`, a longer salt) goes to ``Argon2/Reference``.
    package enum Sodium {
        /// Whether libsodium can compute this hash.
        package static func handles(salt: [UInt8], parameters: Argon2Parameters, version: UInt32, length: Int) -> Bool {
            version == 0x13 && parameters.parallelism == 1
                && SodiumArgon2id.handles(
                    saltCount: salt.count, iterations: parameters.iterations, memoryKiB: parameters.memoryKiB, length: length
                )
        }

        /// The hash, in this thread's helper process if it has one, else here.
        package static func hash(_ password: [UInt8], salt: [UInt8], parameters: Argon2Parameters, length: Int) throws -> [UInt8] {
            if let worker = HashWorker.existing, let answer = worker.hash(HashRequest(
                password: password, salt: salt, iterations: parameters.iterations, memoryKiB: parameters.memoryKiB,
                length: UInt32(length)
            )) {
                guard let hash = answer else { throw Argon2Error(code: ARGON2_MEMORY_ALLOCATION_ERROR.rawValue) }
                return hash
            }
            return try hashHere(password, salt: salt, parameters: parameters, length: length)
        }

        /// The hash on the calling thread, in its ``Argon2Scratch`` if it has one (a hashing
        /// thread); its CPU time is added to ``HashCPUTime``.
        package static func hashHere(
            _ password: [UInt8], salt: [UInt8], parameters: Argon2Parameters, length: Int,
            scratch: Argon2Scratch? = Argon2Scratch.existing
        ) throws -> [UInt8] {
            guard let hash = HashCPUTime.measure({
                SodiumArgon2id.hash(
                    password, salt: salt, iterations: parameters.iterations, memoryKiB: parameters.memoryKiB, length: length,
                    scratch: scratch
                )
            }) else { throw Argon2Error(code: ARGON2_MEMORY_ALLOCATION_ERROR.rawValue) }
            return hash
        }
    }
}
