import CArgon2
import GatehouseHashWorker

extension Argon2 {
    /// argon2id through libargon2's context API, for the hashes libsodium cannot compute (more
    /// than one lane, another salt length or version), and as the benchmark's other candidate.
    ///
    /// Its blocks come from the calling thread's ``Argon2Scratch``, so a hashing thread maps
    /// its memory once and reuses it, instead of paying the page faults of fresh pages on
    /// every hash.
    package enum Reference {
        package static func hash(_ password: [UInt8], salt: [UInt8], parameters: Argon2Parameters, version: UInt32, length: Int) throws -> [UInt8] {
            var out = [UInt8](repeating: 0, count: length)
            var password = password, salt = salt
            let status = out.withUnsafeMutableBufferPointer { out in
                password.withUnsafeMutableBufferPointer { pwd in
                    salt.withUnsafeMutableBufferPointer { salt in
                        var context = argon2_context(
                            out: out.baseAddress, outlen: UInt32(out.count), pwd: pwd.baseAddress, pwdlen: UInt32(pwd.count),
                            salt: salt.baseAddress, saltlen: UInt32(salt.count), secret: nil, secretlen: 0, ad: nil, adlen: 0,
                            t_cost: parameters.iterations, m_cost: parameters.memoryKiB, lanes: parameters.parallelism,
                            threads: parameters.parallelism, version: version,
                            allocate_cbk: borrowScratch, free_cbk: returnScratch, flags: 0
                        )
                        return argon2id_ctx(&context)
                    }
                }
            }
            guard status == ARGON2_OK.rawValue else { throw Argon2Error(code: status) }
            return out
        }
    }
}

/// libargon2's allocator: the calling thread's scratch memory, grown if it is too small.
private let borrowScratch: allocate_fptr = { memory, bytes in
    guard let memory, let pointer = Argon2Scratch.current.borrow(bytes) else { return ARGON2_MEMORY_ALLOCATION_ERROR.rawValue }
    memory.pointee = pointer
    return ARGON2_OK.rawValue
}

/// Kept for the thread's next hash; ``Argon2Scratch/releaseIfIdle(after:)`` gives it back.
private let returnScratch: deallocate_fptr = { _, _ in }
