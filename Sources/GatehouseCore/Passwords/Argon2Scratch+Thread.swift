import Foundation
import GatehouseHashWorker

extension Argon2Scratch {
    /// The calling thread's scratch, made on first use.
    package static var current: Argon2Scratch {
        if let scratch = existing { return scratch }
        let scratch = Argon2Scratch()
        Thread.current.threadDictionary[key] = scratch
        return scratch
    }

    /// The current thread's scratch, if it has one.
    ///
    /// A hashing thread makes its own when it starts (``HashingPool``); libsodium hashes in it
    /// there, and maps its own memory on any other thread.
    package static var existing: Argon2Scratch? { Thread.current.threadDictionary[key] as? Argon2Scratch }

    private static let key = "gatehouse.argon2.scratch"
}
