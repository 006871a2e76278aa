import CSodium
import GatehouseHashWorker
#if canImport(Glibc)
import Glibc
#endif

// A hashing helper (issue 41): the server's hashing threads each start one and hand it their
// argon2id hashes over a socket on its standard input, so each hash runs in a process of its own
// (in memory it maps once and reuses, as the server's threads do). It reads
// requests until the socket closes, and dies with the thread that started it.
#if os(Linux)
gatehouse_hasher_detach()
#endif
let scratch = Argon2Scratch()  // the memory every hash reuses (SodiumArgon2id's loan)
while var request = HashRequest.read(from: 0) {
    let hash = SodiumArgon2id.handles(
        saltCount: request.salt.count, iterations: request.iterations, memoryKiB: request.memoryKiB, length: Int(request.length)
    ) ? SodiumArgon2id.hash(
        request.password, salt: request.salt, iterations: request.iterations, memoryKiB: request.memoryKiB,
        length: Int(request.length), scratch: scratch
    ) : nil
    request.password.withUnsafeMutableBytes { sodium_memzero($0.baseAddress, $0.count) }
    guard Descriptor.write(0, HashReply.encoded(hash)) else { break }
}
exit(0)
