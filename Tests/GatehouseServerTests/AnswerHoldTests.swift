import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// A request's after-the-answer work (its mail, its notices) starts once its answer is written,
/// so an address that gets a mail answers in the time of one that does not: the first try of
/// the mail no longer competes with the answer for the machine.
@Suite struct AnswerHoldTests {
    /// What happened, in order.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    @Test func heldWorkStartsOnlyOnReleaseInOrderAndLaterWorkAtOnce() {
        let log = Log()
        let hold = AnswerHold()
        AnswerHold.$current.withValue(hold) {
            AnswerHold.afterAnswer { log.add("mail") }
            AnswerHold.afterAnswer { log.add("notice") }
        }
        #expect(log.all.isEmpty)
        #expect(hold.isHolding)
        hold.release()
        #expect(log.all == ["mail", "notice"])
        #expect(!hold.isHolding)
        AnswerHold.$current.withValue(hold) { AnswerHold.afterAnswer { log.add("late") } }
        #expect(log.all == ["mail", "notice", "late"])
    }

    @Test func outsideARequestWorkStartsAtOnce() {
        let log = Log()
        AnswerHold.afterAnswer { log.add("worker") }
        #expect(log.all == ["worker"])
    }

    @Test func aHoldWhoseAnswerIsNeverWrittenStartsItsWorkWhenItGoes() {
        let log = Log()
        do {
            let hold = AnswerHold()
            AnswerHold.$current.withValue(hold) { AnswerHold.afterAnswer { log.add("mail") } }
            #expect(log.all.isEmpty)
        }
        #expect(log.all == ["mail"])
    }

    /// A router with the middleware: `/mail` holds a job and answers with a body that logs
    /// when it is written; `/quiet` holds nothing; `/fails` holds a job and throws.
    static func router(_ log: Log) -> Router<GatehouseRequestContext> {
        let router = Router(context: GatehouseRequestContext.self)
        router.add(middleware: AnswerHoldMiddleware())
        router.get("/mail") { _, _ -> Response in
            AnswerHold.afterAnswer { log.add("mail") }
            return Response(status: .ok, body: ResponseBody { writer in
                log.add("answer")
                try await writer.write(ByteBuffer(string: "sent"))
                try await writer.finish(nil)
            })
        }
        router.get("/quiet") { _, _ in "quiet" }
        router.get("/fails") { _, _ -> String in
            AnswerHold.afterAnswer { log.add("notice") }
            throw HTTPError(.badRequest)
        }
        return router
    }

    @Test func theMiddlewareStartsARequestsMailAfterItsAnswerIsWritten() async throws {
        let log = Log()
        try await Application(router: Self.router(log)).test(.router) { client in
            let mail = try await client.execute(uri: "/mail", method: .get)
            #expect(String(buffer: mail.body) == "sent")
            #expect(log.all == ["answer", "mail"])
            let quiet = try await client.execute(uri: "/quiet", method: .get)
            #expect(quiet.status == .ok && String(buffer: quiet.body) == "quiet")
            #expect(log.all == ["answer", "mail"])
            let failed = try await client.execute(uri: "/fails", method: .get)
            #expect(failed.status == .badRequest)
            #expect(log.all == ["answer", "mail", "notice"])
        }
    }
}
