import Foundation

/// A session's device as a person recognises it in a list: "iPhone · Safari", "Linux · Chrome".
///
/// Read from the `User-Agent` at sign-in. Browsers name their platform in the parenthesis and
/// their engine in the product tokens (Chrome says "Safari" too, Edge says "Chrome", so the
/// most specific token wins); other clients are named by their first product token ("curl",
/// "python-requests"). What cannot be read is "Unknown device". Only printable ASCII is kept.
package enum DeviceLabel {
    package static let unknown = "Unknown device"

    // Read as UTF-8 bytes: on Swift's `Character`s the label of a Chrome user agent took about
    // 270,000 instructions, 8 % of a passkey sign-in's (issue 41). Every token is ASCII, and no
    // byte of a non-ASCII character is below 0x80, so the bytes find what the characters did.

    package static func make(userAgent: String?) -> String {
        guard let userAgent else { return unknown }
        var agent = Array(userAgent.utf8)
        if let first = agent.first, let last = agent.last, !isPlain(first) || !isPlain(last) {
            agent = Array(userAgent.trimmingCharacters(in: .whitespaces).utf8)
        }
        guard !agent.isEmpty else { return unknown }
        switch (platform(agent), browser(agent)) {
        case (let platform?, let browser?): return "\(platform) · \(browser)"
        case (let platform?, nil): return platform
        case (nil, let browser?): return browser
        case (nil, nil): return product(agent) ?? unknown
        }
    }

    private static let platforms: [(token: [UInt8], name: String)] = [
        ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
        ("Macintosh", "Mac"), ("Mac OS X", "Mac"), ("Linux", "Linux"),
    ].map { (Array($0.utf8), $1) }

    /// Most specific first: Edge and Opera also say "Chrome"; Chrome also says "Safari".
    private static let browsers: [(token: [UInt8], name: String)] = [
        ("Edg/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
        ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
    ].map { (Array($0.utf8), $1) }

    private static let mozilla = Array("Mozilla/".utf8)

    /// An ASCII byte that trimming whitespace would keep: anything else sends the agent through
    /// Foundation's trimming, which knows every Unicode space.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x80
    }

    private static func platform(_ agent: [UInt8]) -> String? {
        guard let open = agent.firstIndex(of: UInt8(ascii: "(")),
              let close = agent[open...].firstIndex(of: UInt8(ascii: ")"))
        else { return nil }
        let inside = agent[open..<close]
        return platforms.first { contains($0.token, in: inside) }?.name
    }

    private static func browser(_ agent: [UInt8]) -> String? {
        guard agent.starts(with: mozilla) else { return nil }
        return browsers.first { contains($0.token, in: agent[...]) }?.name
    }

    /// Whether `token` occurs in `bytes`. (The standard library's `firstRange(of:)` costs
    /// twice what the characters did here.)
    private static func contains(_ token: [UInt8], in bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = token.first else { return true }
        guard bytes.count >= token.count else { return false }
        for start in bytes.startIndex...(bytes.endIndex - token.count) where bytes[start] == first {
            if bytes[start..<start + token.count].elementsEqual(token) { return true }
        }
        return false
    }

    /// The first product token's name (`curl/8.5.0` → `curl`), printable ASCII, at most 40 characters.
    private static func product(_ agent: [UInt8]) -> String? {
        var kept: [UInt8] = []
        for byte in agent {
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "(") || kept.count == 40 { break }
            if byte > 0x20, byte < 0x7F { kept.append(byte) }
        }
        return kept.isEmpty ? nil : String(decoding: kept, as: UTF8.self)
    }
}
