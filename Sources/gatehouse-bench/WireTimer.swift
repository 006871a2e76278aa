import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// A request timed on the wire: from its last byte sent to the answer's first byte received.
///
/// That span is the server's time plus the loopback's and the client's event loop waking, and
/// none of the client's own work (encoding the request, decoding the answer, its task's
/// wake-ups): the benchmark's "server time". Every callback runs on the request's event loop,
/// one after another, so the fields need no lock.
final class WireTimer: HTTPClientResponseDelegate, @unchecked Sendable {
    struct Answer {
        let status: UInt
        let body: ByteBuffer
        /// Seconds from the request's last byte sent to the answer's head received.
        let serverTime: Double
    }

    private var sent: NIODeadline?
    private var answered: NIODeadline?
    private var status: UInt = 0
    private var body = ByteBuffer()

    func didSendRequest(task: HTTPClient.Task<Answer>) {
        sent = .now()
    }

    func didReceiveHead(task: HTTPClient.Task<Answer>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        answered = .now()
        status = head.status.code
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Answer>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        var part = part
        body.writeBuffer(&part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Answer>) throws -> Answer {
        guard let sent, let answered else { throw LoadClient.Failure(description: "an answer arrived before its request was sent") }
        return Answer(status: status, body: body, serverTime: Double((answered - sent).nanoseconds) / 1e9)
    }
}

extension LoadClient {
    /// A POST of a JSON body, expecting `status`, with the server's time on the wire.
    func timedPost(_ path: String, json: Data, headers: [String: String] = [:], expect status: UInt) async throws -> WireTimer.Answer {
        var fields: HTTPHeaders = ["Content-Type": "application/json"]
        for (name, value) in headers { fields.add(name: name, value: value) }
        let request = try HTTPClient.Request(url: base + path, method: .POST, headers: fields, body: .data(json))
        let answer = try await http.execute(request: request, delegate: WireTimer()).futureResult.get()
        guard answer.status == status else { throw Failure(description: "POST \(path) answered \(answer.status)") }
        return answer
    }
}
