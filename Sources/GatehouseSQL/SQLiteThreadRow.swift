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

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let index = columns.firstIndex(of: column) else { throw MissingColumn(column: column) }
        return try decoder.decode(D.self, from: values[index])
    }
}
