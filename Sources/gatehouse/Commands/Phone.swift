import ArgumentParser
import Foundation
import GatehouseCore

extension Gatehouse {
    /// `gatehouse phone`: what the server's libphonenumber makes of numbers, without a server.
    struct Phone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check phone numbers as the server reads them.", subcommands: [Check.self]
        )
    }
}

extension Gatehouse.Phone {
    /// `gatehouse phone check [--country IN] [NUMBER…]`: one JSON line per number (from the
    /// arguments, or one per line on standard input): valid, type, E.164, region, and whether a
    /// code may be sent to it.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print how each number parses, as JSON lines.")

        @Option(help: "The region numbers without + are dialled in (ISO 3166, such as IN).") var country = "IN"
        @Argument(help: "Numbers; read from standard input, one per line, when none are given.") var numbers: [String] = []

        func validate() throws {
            guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw ValidationError("--country must be a two-letter region such as IN")
            }
        }

        struct Line: Encodable {
            let input: String
            let parsed: Bool
            let valid: Bool
            let type: String?
            let e164: String?
            let region: String?
            let sms: Bool
        }

        func run() async throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var inputs = numbers
            if inputs.isEmpty { while let line = readLine() { inputs.append(line) } }
            for input in inputs {
                let number = PhoneNumber.parse(input, region: country)
                let line = Line(
                    input: input, parsed: number != nil, valid: number?.isValid ?? false, type: number.map { "\($0.kind)" },
                    e164: number?.e164, region: number?.region, sms: number?.canReceiveSMS ?? false
                )
                print(String(decoding: try encoder.encode(line), as: UTF8.self))
            }
        }
    }
}
