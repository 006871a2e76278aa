import CQREncode
import Foundation

/// QR codes from Debian's libqrencode: the `otpauth://` URI of a new authenticator-app factor
/// drawn on the server, as inline SVG for a page and as UTF-8 half blocks for a terminal.
/// Nothing is fetched from anywhere else.
public struct QRCode: Sendable, Equatable {
    /// The modules, row by row; `true` is dark. Square, without the quiet zone.
    public let modules: [[Bool]]

    /// Encodes `text` (byte mode, error correction level M); `nil` if it does not fit a QR code.
    public init?(_ text: String) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = code.pointee.data!
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }

    /// The side in modules, without the quiet zone.
    public var size: Int { modules.count }

    /// An SVG image with the standard quiet zone of four modules, dark on light whatever the
    /// page's theme (scanners need it), named for assistive technology by `label`.
    public func svg(label: String) -> String {
        let quiet = 4, side = size + 2 * quiet
        var path = ""
        for (row, line) in modules.enumerated() {
            var column = 0
            while column < line.count {
                guard line[column] else { column += 1; continue }
                let start = column
                while column < line.count, line[column] { column += 1 }
                path += "M\(start + quiet) \(row + quiet)h\(column - start)v1h-\(column - start)z"
            }
        }
        let escaped = label.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
        return #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(side) \#(side)" role="img" aria-label="\#(escaped)" shape-rendering="crispEdges">"#
            + #"<rect width="\#(side)" height="\#(side)" fill="white"/><path fill="black" d="\#(path)"/></svg>"#
    }

    /// Two rows per line in UTF-8 half blocks (`▀`, `▄`, `█`), light on the terminal's dark with
    /// a quiet zone of two modules, for `gatehouse mfa enrol`.
    public func terminal() -> String {
        let quiet = 2, side = size + 2 * quiet
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            return r >= 0 && c >= 0 && r < size && c < size && modules[r][c]
        }
        var lines: [String] = []
        for row in stride(from: 0, to: side, by: 2) {
            var line = ""
            for column in 0..<side {
                // A light module is drawn (the terminal's background is taken as dark).
                switch (!dark(row, column), row + 1 < side && !dark(row + 1, column)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
