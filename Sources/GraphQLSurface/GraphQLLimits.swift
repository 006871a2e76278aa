import GraphQL

/// How large and deep a GraphQL document may be; checked before the library validates it.
///
/// The defaults admit every document the seed clients and gql's introspection send, with
/// room to spare, and bound the CPU any one request can take: the nesting check runs on the
/// raw text before parsing (so the parser never recurses deeply), the rest on the parsed
/// document with fragments expanded and counting stopped at the first limit passed.
public struct GraphQLLimits: Sendable, Equatable {
    /// The document's size in UTF-8 bytes.
    public var maxDocumentBytes = 16 * 1024
    /// Brackets (`{`, `[`, `(`) open at once anywhere in the text.
    public var maxNesting = 32
    /// Fields inside fields, fragments expanded (`{ me { id } }` is 2).
    public var maxSelectionDepth = 15
    /// Aliased fields in the whole document, fragments expanded.
    public var maxAliases = 10
    /// Fields and fragment spreads in the whole document, fragments expanded: the cost estimate.
    public var maxCost = 500
    /// Lists and objects written inside one another in an argument (`{a: {b: 1}}` is 2).
    public var maxLiteralDepth = 4

    public init() {}

    /// Why a document is refused, as one sentence for the client.
    public struct Exceeded: Error, Equatable {
        public let message: String
    }

    /// Refuses text that is too long or nests too deep, without parsing it.
    ///
    /// Brackets inside strings, block strings and comments do not count.
    public func checkText(_ text: String) throws(Exceeded) {
        let bytes = text.utf8
        guard bytes.count <= maxDocumentBytes else {
            throw Exceeded(message: "The document must be at most \(maxDocumentBytes) bytes")
        }
        var depth = 0
        var index = bytes.startIndex
        func next(_ offset: Int = 1) -> UInt8? {
            let position = bytes.index(index, offsetBy: offset, limitedBy: bytes.endIndex) ?? bytes.endIndex
            return position < bytes.endIndex ? bytes[position] : nil
        }
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "#"):
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\n") { index = bytes.index(after: index) }
                continue
            case UInt8(ascii: "\""):
                let block = next() == UInt8(ascii: "\"") && next(2) == UInt8(ascii: "\"")
                index = skipString(bytes, from: index, block: block)
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                depth += 1
                guard depth <= maxNesting else {
                    throw Exceeded(message: "The document nests more than \(maxNesting) levels deep")
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                depth -= 1
            default:
                break
            }
            index = bytes.index(after: index)
        }
    }

    /// The index just past the string that starts at `start` (or the end of the text).
    private func skipString(_ bytes: String.UTF8View, from start: String.UTF8View.Index, block: Bool) -> String.UTF8View.Index {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        var index = bytes.index(start, offsetBy: block ? 3 : 1)
        while index < bytes.endIndex {
            let byte = bytes[index]
            if block {
                if byte == quote, bytes[index...].starts(with: [quote, quote, quote]) {
                    return bytes.index(index, offsetBy: 3)
                }
                // `\"""` is an escaped triple quote inside a block string.
                if byte == backslash, bytes[bytes.index(after: index)...].starts(with: [quote, quote, quote]) {
                    index = bytes.index(index, offsetBy: 4)
                    continue
                }
            } else {
                if byte == backslash {
                    index = bytes.index(index, offsetBy: 2, limitedBy: bytes.endIndex) ?? bytes.endIndex
                    continue
                }
                if byte == quote || byte == UInt8(ascii: "\n") { return bytes.index(after: index) }
            }
            index = bytes.index(after: index)
        }
        return bytes.endIndex
    }
}
