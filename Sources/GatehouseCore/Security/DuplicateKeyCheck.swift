import Foundation

/// Finds a JSON object that names the same key twice.
///
/// Parsers disagree on `{"email":"a","email":"b"}`: Foundation keeps the first, most
/// proxies, WAFs and JavaScript keep the last. A request that means two things to two
/// components is refused rather than guessed at. Keys are compared after unescaping, so
/// `"\u0065mail"` repeats `"email"`. Malformed JSON is left for the decoder to report.
package enum DuplicateKeyCheck {
    private enum Frame {
        case object(keys: Set<String>, expectingKey: Bool)
        case array
    }

    /// Refuses a body in which any object repeats a key, with 400 on every surface.
    package static func require(_ bytes: some Collection<UInt8>) throws {
        guard !hasDuplicateKey(bytes) else { throw GatehouseError.invalidRequest("The body must not name a key twice") }
    }

    /// Whether any object in the document repeats a key.
    package static func hasDuplicateKey(_ bytes: some Collection<UInt8>) -> Bool {
        let bytes = Array(bytes)
        var stack: [Frame] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"):
                stack.append(.object(keys: [], expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(.array)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                if case .object(let keys, _) = stack.last { stack[stack.count - 1] = .object(keys: keys, expectingKey: true) }
            case UInt8(ascii: "\""):
                guard let end = stringEnd(bytes, from: index) else { return false }
                if case .object(var keys, true) = stack.last {
                    let raw = bytes[index...end]
                    let inner = String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                    let key = raw.contains(UInt8(ascii: "\\"))
                        ? (try? JSONSerialization.jsonObject(with: Data(raw), options: .fragmentsAllowed) as? String) ?? inner
                        : inner
                    guard keys.insert(key).inserted else { return true }
                    stack[stack.count - 1] = .object(keys: keys, expectingKey: false)
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return false
    }

    /// The index of the quote closing the string that opens at `start`, or `nil` if none does.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return nil
    }
}
