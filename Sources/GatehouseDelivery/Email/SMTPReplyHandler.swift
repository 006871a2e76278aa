import NIOCore

/// One SMTP reply: its code and the text of each line (RFC 5321 4.2).
package struct SMTPReply: Sendable, Equatable {
    package let code: Int
    package let lines: [String]
}

/// Turns the server's bytes into replies: CRLF lines, `250-` continuing and `250 ` ending one.
///
/// Replies go to an async stream the client reads in order; a line over 4 KiB or a reply over
/// 100 lines ends the connection, so a broken server cannot make the client hold unbounded data.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation
    private var partial: [UInt8] = []
    private var lines: [String] = []

    init(_ continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        for byte in buffer.readableBytesView {
            guard byte == 0x0A else {
                partial.append(byte)
                if partial.count > 4096 { return fail(context, "a reply line is too long") }
                continue
            }
            if partial.last == 0x0D { partial.removeLast() }
            let line = String(decoding: partial, as: UTF8.self)
            partial.removeAll(keepingCapacity: true)
            guard line.utf8.count >= 3, let code = Int(line.prefix(3)), (200...599).contains(code) else {
                return fail(context, "the server sent a line that is not a reply")
            }
            lines.append(line.count > 4 ? String(line.dropFirst(4)) : "")
            if lines.count > 100 { return fail(context, "a reply has too many lines") }
            let continues = line.count > 3 && line[line.index(line.startIndex, offsetBy: 3)] == "-"
            if !continues {
                continuation.yield(SMTPReply(code: code, lines: lines))
                lines = []
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    private func fail(_ context: ChannelHandlerContext, _ reason: String) {
        continuation.finish(throwing: SMTPFailure(reason, transient: true))
        context.close(promise: nil)
    }
}

/// Why a mail was not submitted; `transient` failures are worth another try (4xx, a timeout,
/// a lost connection), the others are not (5xx, no TLS where it is required).
package struct SMTPFailure: Error, Sendable {
    package let reason: String
    package let transient: Bool

    package init(_ reason: String, transient: Bool) {
        self.reason = reason
        self.transient = transient
    }
}
