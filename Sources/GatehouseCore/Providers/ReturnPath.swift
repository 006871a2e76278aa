import Foundation

/// A place on this server a web page may send the browser after signing in (`return_to`).
///
/// Only a path on the public URL's own origin is accepted. Browsers strip tabs and newlines
/// from URLs and read `\` as `/`, so `/\t/evil.example` would become `//evil.example`, another
/// origin: any character at or below U+0020, U+007F, anything outside ASCII and `\` are
/// refused outright, then the path is resolved against the public URL and must stay on it.
package enum ReturnPath {
    /// `text` when it is a same-origin path under `publicURL`; `nil` otherwise.
    package static func validated(_ text: String, publicURL: String) -> String? {
        guard text.utf8.count <= 2048, text.hasPrefix("/"), !text.hasPrefix("//") else { return nil }
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" }) else { return nil }
        guard let base = URL(string: publicURL), let resolved = URL(string: text, relativeTo: base)?.absoluteURL,
              resolved.scheme == base.scheme, resolved.host == base.host, resolved.port == base.port,
              resolved.user == nil, resolved.password == nil
        else { return nil }
        return text
    }
}
