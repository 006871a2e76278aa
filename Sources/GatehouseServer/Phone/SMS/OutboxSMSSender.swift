import Foundation
import Logging
import NIOConcurrencyHelpers

/// The development sender: each message is appended to a file as one JSON line.
///
/// `serve --demo` uses it (`--sms-outbox PATH`); a person reads the code from the file. The
/// log says a message was written and where, never the code.
public struct OutboxSMSSender: SMSSender {
    let path: String
    let logger: Logger
    private let lock = NIOLock()

    public init(path: String, logger: Logger) {
        self.path = path
        self.logger = logger
    }

    public func send(_ message: SMSMessage) async throws {
        struct Line: Encodable {
            let to: String
            let body: String
            let code: String
            let sentAt: String

            enum CodingKeys: String, CodingKey {
                case to, body, code
                case sentAt = "sent_at"
            }
        }
        let line = Line(to: message.to, body: message.body, code: message.code, sentAt: ISO8601DateFormatter().string(from: Date()))
        var data = try JSONEncoder().encode(line)
        data.append(0x0A)
        try lock.withLock {
            if !FileManager.default.fileExists(atPath: path) {
                guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw SMSDeliveryError("cannot create the outbox \(path)")
                }
            }
            guard let handle = FileHandle(forWritingAtPath: path) else { throw SMSDeliveryError("cannot open the outbox \(path)") }
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
        }
        logger.info("SMS written to the outbox", metadata: ["sms.outbox": "\(path)", "sms.to": "\(PhoneLog.redacted(message.to))"])
    }
}

/// How phone numbers appear in logs: the country code and the last two digits.
enum PhoneLog {
    static func redacted(_ e164: String) -> String {
        guard e164.count > 6 else { return "…" }
        return String(e164.prefix(3)) + "…" + String(e164.suffix(2))
    }
}
