/// Rejects JSON objects with keys a type does not know, so configuration typos fail loudly.
enum StrictKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct UnknownKey: Error, CustomStringConvertible {
        let key: String
        let allowed: [String]
        var description: String { "unknown key '\(key)'; expected one of: \(allowed.joined(separator: ", "))" }
    }

    static func check(_ decoder: any Decoder, allowed: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        if let stray = container.allKeys.first(where: { !allowed.contains($0.stringValue) }) {
            throw UnknownKey(key: stray.stringValue, allowed: allowed)
        }
    }
}
