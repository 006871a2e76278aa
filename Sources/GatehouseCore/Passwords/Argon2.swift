import CArgon2
import ExtrasBase64
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// argon2id through libargon2's context API, with its memory mapped and unmapped per hash.
///
/// A hash needs `m` KiB (19 MiB at OWASP's minimum). Through `malloc` those blocks stay in
/// the allocator after each hash, so an idle server kept them resident; mapped with `mmap`
/// and released with `munmap` they go back to the system at once. The encoded form is the
/// PHC string libargon2 writes and reads: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`.
package enum Argon2 {
    /// The parts of a PHC string.
    package struct Encoded: Equatable {
        package var version: UInt32
        package var parameters: Argon2Parameters
        package var salt: [UInt8]
        package var hash: [UInt8]

        /// Parses a PHC string; `nil` for anything that is not a well-formed argon2id hash.
        package init?(_ text: String) {
            var parts = text.split(separator: "$", omittingEmptySubsequences: false).dropFirst()
            guard parts.popFirst() == "argon2id" else { return nil }
            version = 0x10
            if let part = parts.first, part.hasPrefix("v=") {
                guard let value = UInt32(part.dropFirst(2)) else { return nil }
                version = value
                parts.removeFirst()
            }
            guard parts.count == 3 else { return nil }
            var values: [String: UInt32] = [:]
            for pair in parts[parts.startIndex].split(separator: ",") {
                let kv = pair.split(separator: "=", maxSplits: 1)
                guard kv.count == 2, let value = UInt32(kv[1]) else { return nil }
                values[String(kv[0])] = value
            }
            guard let m = values["m"], let t = values["t"], let p = values["p"], m <= 4 * 1024 * 1024,
                  let salt = try? Base64.decode(string: String(parts[parts.startIndex + 1]), options: .omitPaddingCharacter),
                  let hash = try? Base64.decode(string: String(parts[parts.startIndex + 2]), options: .omitPaddingCharacter),
                  (8...64).contains(salt.count), (16...64).contains(hash.count)
            else { return nil }
            parameters = Argon2Parameters(memoryKiB: m, iterations: t, parallelism: p)
            self.salt = salt
            self.hash = hash
        }

        package init(version: UInt32 = UInt32(ARGON2_VERSION_13.rawValue), parameters: Argon2Parameters, salt: [UInt8], hash: [UInt8]) {
            self.version = version
            self.parameters = parameters
            self.salt = salt
            self.hash = hash
        }

        package var text: String {
            let p = parameters
            let salt = Base64.encodeToString(bytes: salt, options: .omitPaddingCharacter)
            let hash = Base64.encodeToString(bytes: hash, options: .omitPaddingCharacter)
            return "$argon2id$v=\(version)$m=\(p.memoryKiB),t=\(p.iterations),p=\(p.parallelism)$\(salt)$\(hash)"
        }
    }

    /// The raw argon2id hash of a password.
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
                        allocate_cbk: mapMemory, free_cbk: unmapMemory, flags: 0
                    )
                    return argon2id_ctx(&context)
                }
            }
        }
        guard status == ARGON2_OK.rawValue else { throw Argon2Error(code: status) }
        return out
    }
}

/// libargon2's allocator: fresh anonymous pages, returned to the system when freed.
private let mapMemory: allocate_fptr = { memory, bytes in
    guard let memory else { return ARGON2_MEMORY_ALLOCATION_ERROR.rawValue }
    let pointer = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    guard let pointer, pointer != MAP_FAILED else { return ARGON2_MEMORY_ALLOCATION_ERROR.rawValue }
    memory.pointee = pointer.assumingMemoryBound(to: UInt8.self)
    return ARGON2_OK.rawValue
}

private let unmapMemory: deallocate_fptr = { memory, bytes in
    if let memory { munmap(memory, bytes) }
}
