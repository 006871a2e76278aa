import Crypto
import Foundation

extension SecretRepository {
    /// The 256-bit server key named `name`, made on first use and shared by every instance.
    ///
    /// The first instance to ask stores a fresh random key; every later one, on any machine,
    /// reads the same key back, so HMACs and derived values agree across a cluster.
    package func key(named name: String) async throws -> SymmetricKey {
        SymmetricKey(data: try await secret(name, orInsert: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }))
    }
}
