import CArgon2
import ExtrasBase64

/// argon2id, and the PHC strings it is stored as: `$argon2id$v=19$m=…,t=…,p=…$salt$hash`.
///
/// Two implementations compute it, chosen per hash: ``Sodium`` (libsodium, the fastest on
/// this hardware; it maps and unmaps its own memory for each hash) for everything Gatehouse
/// writes, and ``Reference`` (libargon2, reusing each thread's ``Argon2Scratch``) for stored
/// hashes libsodium cannot compute, such as another implementation's four-lane ones.
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

    /// The raw argon2id hash of a password: libsodium when it can compute it, libargon2 otherwise.
    package static func hash(_ password: [UInt8], salt: [UInt8], parameters: Argon2Parameters, version: UInt32, length: Int) throws -> [UInt8] {
        if Sodium.handles(salt: salt, parameters: parameters, version: version, length: length) {
            return try Sodium.hash(password, salt: salt, parameters: parameters, length: length)
        }
        return try Reference.hash(password, salt: salt, parameters: parameters, version: version, length: length)
    }
}
