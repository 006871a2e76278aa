import SQLKit
import SQLiteKit

/// A row read by ``SQLiteHandle``, decoded as SQLiteKit decodes its own.
struct SQLiteThreadRow: SQLRow {
    let columns: [String]
    let values: [SQLiteData]
    let decoder: SQLiteDataDecoder

    /// A column asked for by name that the row does not have.
    struct MissingColumn: Error, CustomStringConvertible {
        let column: String
        var description: String { "no column \(column) in the row" }
    }

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool { columns.contains(column) }

    func decodeNil(column: String) throws -> Bool {
        guard let index = columns.firstIndex(of: column) else { return true }
        return values[index] == .null
    }

    /// The column's value as `D`: text as a `String` and an integer as an `Int64` or `Int`
    /// directly, anything else as SQLiteKit's decoder reads it.
    ///
    /// The decoder first asks whether `D` converts itself (a metatype cast to a protocol, which
    /// looks the conformance up, then a cast back), about 2,000 instructions for each column of
    /// each row; these casts only compare types. The values are those the decoder would make.
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let index = columns.firstIndex(of: column) else { throw MissingColumn(column: column) }
        let value = values[index]
        switch value {
        case .text(let text): if let text = text as? D { return text }
        case .integer(let number):
            if let number = Int64(number) as? D { return number }
            if let number = number as? D { return number }
        case .float, .blob, .null: break
        }
        return try decoder.decode(D.self, from: value)
    }
}
