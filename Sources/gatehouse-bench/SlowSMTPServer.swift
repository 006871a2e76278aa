import Foundation
import NIOCore
import NIOPosix

/// An SMTP server on loopback that waits `delay` before each answer: the mail server from
/// issue 22's benchmark that takes 2 s to reply, so a request that waited on delivery would show.
///
/// It speaks just enough SMTP (greeting, EHLO, MAIL, RCPT, DATA, QUIT) for a submission to finish.
final class SlowSMTPServer: Sendable {
    let channel: any Channel
    var port: Int { channel.localAddress?.port ?? 0 }

    init(delay: TimeAmount) async throws {
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Session(delay: delay)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func stop() async throws {
        try await channel.close()
    }

    /// One connection: answers each line after the delay; inside DATA, only the final dot.
    final class Session: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let delay: TimeAmount
        var pending = ""
        var inData = false

        init(delay: TimeAmount) { self.delay = delay }

        func channelActive(context: ChannelHandlerContext) {
            reply("220 slow.localhost ESMTP", context: context)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var buffer = unwrapInboundIn(data)
            pending += buffer.readString(length: buffer.readableBytes) ?? ""
            while let end = pending.range(of: "\n") {
                let line = pending[..<end.lowerBound].trimmingCharacters(in: .newlines)
                pending.removeSubrange(..<end.upperBound)
                if inData {
                    if line == "." {
                        inData = false
                        reply("250 queued", context: context)
                    }
                    continue
                }
                switch line.prefix(4).uppercased() {
                case "EHLO": reply("250-slow.localhost\r\n250 8BITMIME", context: context)
                case "DATA":
                    inData = true
                    reply("354 go on", context: context)
                case "QUIT": reply("221 bye", context: context, close: true)
                default: reply("250 OK", context: context)
                }
            }
        }

        private func reply(_ text: String, context: ChannelHandlerContext, close: Bool = false) {
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: delay) {
                let context = loopBound.value
                context.writeAndFlush(NIOAny(ByteBuffer(string: text + "\r\n")), promise: nil)
                if close { context.close(promise: nil) }
            }
        }
    }
}
