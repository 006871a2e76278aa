import GatehouseQRCode
import Testing

/// Issue 37's QR codes, drawn by libqrencode: the structure every scanner relies on.
@Suite("QR codes from libqrencode")
struct QRCodeTests {
    static let uri = "otpauth://totp/Peated:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Peated"

    @Test func aVersionsSizeWithFinderPatternsInThreeCorners() throws {
        let code = try #require(QRCode(Self.uri))
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0, "a QR code is 17 + 4 × version modules wide")
        // The 7×7 finder pattern: a dark ring, a light ring, a dark 3×3 centre.
        func finder(_ top: Int, _ left: Int) -> Bool {
            (0..<7).allSatisfy { r in
                (0..<7).allSatisfy { c in
                    let ring = max(abs(r - 3), abs(c - 3))
                    return code.modules[top + r][left + c] == (ring != 2)
                }
            }
        }
        #expect(finder(0, 0) && finder(0, code.size - 7) && finder(code.size - 7, 0))
        #expect(!finder(code.size - 7, code.size - 7), "no finder pattern in the fourth corner")
    }

    @Test func theSVGHasTheQuietZoneAndIsNamed() throws {
        let code = try #require(QRCode(Self.uri))
        let svg = code.svg(label: "QR code for Peated <ada@example.com>")
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(code.size + 8) \#(code.size + 8)" role="img""#))
        #expect(svg.contains(#"aria-label="QR code for Peated &lt;ada@example.com>""#))
        #expect(svg.contains("M4 4h7v1h-7z"), "the top-left finder's first row starts after the quiet zone")
    }

    @Test func theTerminalFormIsTwoRowsPerLine() throws {
        let code = try #require(QRCode("otpauth://totp/A:b?secret=MZXW6YTBOI&issuer=A"))
        let lines = code.terminal().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        #expect(lines[0].allSatisfy { $0 == "█" }, "the quiet zone's first two rows are light")
    }

    @Test func textTooLongForAQRCodeIsNil() {
        #expect(QRCode(String(repeating: "x", count: 4000)) == nil)
    }
}

@Suite("The core's QR renderer over libqrencode")
struct LibQREncodeTests {
    @Test func rendersWhatQRCodeDraws() throws {
        let uri = QRCodeTests.uri
        #expect(LibQREncode().svg(uri, label: "QR") == QRCode(uri)?.svg(label: "QR"))
        #expect(LibQREncode().svg(String(repeating: "x", count: 4000), label: "QR") == nil)
    }
}
