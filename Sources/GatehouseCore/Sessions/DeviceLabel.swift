import Foundation

/// A session's device as a person recognises it in a list: "iPhone · Safari", "Linux · Chrome".
///
/// Read from the `User-Agent` at sign-in. Browsers name their platform in the parenthesis and
/// their engine in the product tokens (Chrome says "Safari" too, Edge says "Chrome", so the
/// most specific token wins); other clients are named by their first product token ("curl",
/// "python-requests"). What cannot be read is "Unknown device". Only printable ASCII is kept.
package enum DeviceLabel {
    package static let unknown = "Unknown device"

    package static func make(userAgent: String?) -> String {
        guard let agent = userAgent?.trimmingCharacters(in: .whitespaces), !agent.isEmpty else { return unknown }
        let platform = platform(agent)
        let browser = browser(agent)
        switch (platform, browser) {
        case (let platform?, let browser?): return "\(platform) · \(browser)"
        case (let platform?, nil): return platform
        case (nil, let browser?): return browser
        case (nil, nil): return product(agent) ?? unknown
        }
    }

    private static let platforms: [(token: String, name: String)] = [
        ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"), ("Windows", "Windows"),
        ("Macintosh", "Mac"), ("Mac OS X", "Mac"), ("Linux", "Linux"),
    ]

    /// Most specific first: Edge and Opera also say "Chrome"; Chrome also says "Safari".
    private static let browsers: [(token: String, name: String)] = [
        ("Edg/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
        ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
    ]

    private static func platform(_ agent: String) -> String? {
        guard let open = agent.firstIndex(of: "("), let close = agent[open...].firstIndex(of: ")") else { return nil }
        let inside = agent[open..<close]
        return platforms.first { inside.contains($0.token) }?.name
    }

    private static func browser(_ agent: String) -> String? {
        guard agent.hasPrefix("Mozilla/") else { return nil }
        return browsers.first { agent.contains($0.token) }?.name
    }

    /// The first product token's name (`curl/8.5.0` → `curl`), printable ASCII, at most 40 characters.
    private static func product(_ agent: String) -> String? {
        let name = agent.prefix { $0 != "/" && $0 != " " && $0 != "(" }
        let clean = String(name.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.map(Character.init).prefix(40))
        return clean.isEmpty ? nil : clean
    }
}
