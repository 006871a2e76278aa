import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Submits one mail to an SMTP server over swift-nio: greeting, `EHLO`, `STARTTLS` (or TLS from
/// the start), `AUTH PLAIN` or `AUTH LOGIN`, `MAIL FROM`, `RCPT TO`, `DATA`, `QUIT`.
///
/// Credentials are sent only over TLS, or to a server on loopback. The whole exchange has one
/// deadline; past it the connection is closed and the attempt fails as transient.
package struct SMTPClient: Sendable {
    package let settings: SMTPSettings
    private let tls: NIOSSLContext

    package init(settings: SMTPSettings) throws {
        self.settings = settings
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        if let path = settings.trustRootsPath { configuration.trustRoots = .file(path) }
        tls = try NIOSSLContext(configuration: configuration)
    }

    /// Sends `mail` (RFC 5322 text) from the configured sender to `recipient`.
    package func submit(_ mail: String, to recipient: String) async throws {
        guard MailAddress.isPlain(recipient) else { throw SMTPFailure("the recipient is not a plain address", transient: false) }
        let (replies, continuation) = AsyncThrowingStream.makeStream(of: SMTPReply.self)
        let settings = settings
        let tls = tls
        let hostname = Self.isIPAddress(settings.host) ? nil : settings.host
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(Int64(min(settings.timeout, 10))))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if settings.security == .implicitTLS {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: hostname))
                        }
                        try channel.pipeline.syncOperations.addHandler(SMTPReplyHandler(continuation))
                    }
                }
                .connect(host: settings.host, port: settings.port).get()
        } catch {
            throw SMTPFailure("cannot connect to \(settings.host):\(settings.port) (\(type(of: error)))", transient: true)
        }
        let timer = channel.eventLoop.scheduleTask(in: .milliseconds(Int64(settings.timeout * 1000))) {
            continuation.finish(throwing: SMTPFailure("the server did not finish within \(Int(settings.timeout)) s", transient: true))
            channel.close(promise: nil)
        }
        defer {
            timer.cancel()
            channel.close(promise: nil)
        }
        var conversation = SMTPConversation(channel: channel, replies: replies.makeAsyncIterator())
        try await conversation.expect([220])
        var capabilities = try await conversation.ehlo()
        if settings.security == .startTLS {
            if capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) {
                try await conversation.command("STARTTLS", expect: [220])
                try await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: hostname), position: .first)
                }.get()
                capabilities = try await conversation.ehlo()
            } else if !settings.isLoopback {
                throw SMTPFailure("the server does not offer STARTTLS; mail is sent only over TLS", transient: false)
            }
        }
        if let user = settings.username, let password = settings.password {
            try await conversation.authenticate(user: user, password: password, capabilities: capabilities)
        }
        try await conversation.command("MAIL FROM:<\(settings.from.address)>", expect: [250])
        try await conversation.command("RCPT TO:<\(recipient)>", expect: [250, 251])
        try await conversation.command("DATA", expect: [354])
        try await conversation.command(MailMIME.dotStuffed(mail) + ".", expect: [250], label: "the message")
        _ = try? await conversation.command("QUIT", expect: [221])
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
    }
}

/// The command-and-reply half of a submission.
private struct SMTPConversation {
    let channel: any Channel
    var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator

    /// Sends a line (or, for DATA, the mail and its final dot) and checks the reply's code.
    /// - Parameter label: how an error names the command; by default its verb.
    @discardableResult
    mutating func command(_ line: String, expect codes: Set<Int>, label: String? = nil) async throws -> SMTPReply {
        try await channel.writeAndFlush(ByteBuffer(string: line + "\r\n"))
        // The verb only: the message or an AUTH argument is never repeated in an error.
        return try await expect(codes, after: label ?? String(line.prefix { $0 != " " && $0 != ":" }.prefix(10)))
    }

    @discardableResult
    mutating func expect(_ codes: Set<Int>, after label: String = "the greeting") async throws -> SMTPReply {
        guard let reply = try await replies.next() else { throw SMTPFailure("the server closed the connection", transient: true) }
        guard codes.contains(reply.code) else {
            throw SMTPFailure("\(label) answered \(reply.code)", transient: (400..<500).contains(reply.code))
        }
        return reply
    }

    /// `EHLO`; returns the server's extensions (`STARTTLS`, `AUTH PLAIN LOGIN`, …).
    mutating func ehlo() async throws -> [String] {
        Array(try await command("EHLO \(Self.clientName)", expect: [250]).lines.dropFirst())
    }

    /// `AUTH PLAIN` when offered, else `AUTH LOGIN`.
    mutating func authenticate(user: String, password: String, capabilities: [String]) async throws {
        let mechanisms = capabilities.first { $0.uppercased().hasPrefix("AUTH") }.map {
            Set($0.uppercased().split(whereSeparator: { $0 == " " || $0 == "=" }).dropFirst().map(String.init))
        } ?? []
        if mechanisms.contains("PLAIN") {
            let token = Data("\u{0}\(user)\u{0}\(password)".utf8).base64EncodedString()
            try await command("AUTH PLAIN \(token)", expect: [235])
        } else if mechanisms.contains("LOGIN") {
            try await command("AUTH LOGIN", expect: [334])
            try await command(Data(user.utf8).base64EncodedString(), expect: [334])
            try await command(Data(password.utf8).base64EncodedString(), expect: [235])
        } else {
            throw SMTPFailure("the server offers neither AUTH PLAIN nor AUTH LOGIN", transient: false)
        }
    }

    /// How the client names itself in EHLO.
    static let clientName: String = {
        let name = ProcessInfo.processInfo.hostName
        return name.isEmpty || name.contains(" ") ? "gatehouse.localdomain" : name
    }()
}
