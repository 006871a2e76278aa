import Foundation
import GatehouseCore
import Testing

/// Record ids are random version-4 UUIDs, lowercased, as `UUID()` made them.
@Suite struct RecordIDTests {
    @Test func anIDIsALowercasedVersionFourUUIDOfRFC9562sVariant() throws {
        for _ in 0..<500 {
            let id = RecordID.make()
            let uuid = try #require(UUID(uuidString: id))
            #expect(id == uuid.uuidString.lowercased())
            #expect(uuid.uuid.6 >> 4 == 4)
            #expect(uuid.uuid.8 >> 6 == 0b10)
        }
    }

    @Test func idsDoNotRepeatAndEveryFreeBitVaries() {
        let ids = (0..<2_000).map { _ in UUID(uuidString: RecordID.make())! }
        #expect(Set(ids).count == ids.count)
        // The 122 random bits: each is set in some ids and clear in others.
        let bytes = ids.map { withUnsafeBytes(of: $0.uuid) { Array($0) } }
        let fixed: [Int: UInt8] = [6: 0xF0, 8: 0xC0]
        for index in 0..<16 {
            let free = ~(fixed[index] ?? 0)
            let ors = bytes.reduce(UInt8(0)) { $0 | $1[index] }, ands = bytes.reduce(UInt8(0xFF)) { $0 & $1[index] }
            #expect(ors & free == free && ands & free == 0, "byte \(index)")
        }
    }
}
