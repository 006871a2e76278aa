import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehousePhoneNumbers
import GatehouseSQL
import GatehouseTestSupport
import Logging
import NIOCore
import Synchronization

/// Seed 004's phone sign-in under load: `POST /api/auth/phone/otp` and `/verify` per second
/// and their p99, with the outbox sender, against a server of its own with 16 phone accounts.
///
/// Sends go to the worker's own phone (the limits are raised, as for the login phase, but still
/// counted). Verifies with a wrong code do all of a verify's work but open no session; full
/// sign-ins (send, read the code from the outbox, verify) are timed one at a time.
enum PhoneBench {
    static func phone(_ index: Int) -> String { "+9198765\(String(format: "%05d", index))" }

    static func run(seconds: Double) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-bench-phone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outbox = folder.appendingPathComponent("outbox.jsonl").path
        let database = folder.appendingPathComponent("bench.sqlite").path
        try await Storage.with(try DatabaseLocation(database), logger: Logger(label: "bench")) { storage in
            try await storage.repository.migrate()
            let admin = UserAdministration(repository: storage.repository, numbers: LibPhoneNumber(), hasher: PasswordHasher(limits: .tests), clock: { Date() }, passwordPolicy: nil)
            for index in 0..<16 { _ = try await admin.create(phone: phone(index), name: "Bench \(index)") }
        }
        let server = try await LoopbackServer.start(databasePath: database) {
            $0.phone = PhonePolicy()
            $0.sms = .outbox(path: outbox)
            $0.phone?.resendAfter = 0
            $0.phone?.sendsPerPhone = 1_000_000
            $0.phone?.sendsPerPhonePerDay = 1_000_000
            $0.phone?.requestsPerAddress = 1_000_000
            $0.phone?.smsPerHour = 1_000_000
            // A phone sign-in goes through the same guarded pipeline as a password: its limits too.
            $0.abuse.addressLimit = 1_000_000
            $0.abuse.backoffThreshold = 1_000_000
            $0.abuse.accountFailuresPerHour = 1_000_000
        }
        let client = LoadClient(base: server.url.absoluteString)
        let sendTimes = Mutex<[Double]>([])
        let sends = try await client.rate(concurrency: 16, seconds: seconds) { worker in
            let start = ContinuousClock.now
            _ = try await client.postPhone("/api/auth/phone/otp", ["phone": phone(worker)], expect: 200)
            sendTimes.withLock { $0.append((ContinuousClock.now - start).seconds) }
        }
        // Each worker verifies wrong codes on a fresh code of its own, four tries per code.
        let ids = Mutex([String](repeating: "", count: 16))
        let tries = Mutex([Int](repeating: 4, count: 16))
        let verifyTimes = Mutex<[Double]>([])
        let verifies = try await client.rate(concurrency: 16, seconds: seconds) { worker in
            if tries.withLock({ $0[worker] }) >= 4 {
                let sent = try await client.postPhone("/api/auth/phone/otp", ["phone": phone(worker)], expect: 200)
                let id = try JSONDecoder().decode(Sent.self, from: Data(buffer: sent)).verification_id
                ids.withLock { $0[worker] = id }
                tries.withLock { $0[worker] = 0 }
            }
            let start = ContinuousClock.now
            _ = try await client.postPhone("/api/auth/phone/verify", ["verification_id": ids.withLock { $0[worker] }, "code": "0000000"], expect: 400)
            verifyTimes.withLock { $0.append((ContinuousClock.now - start).seconds) }
            tries.withLock { $0[worker] += 1 }
        }
        var signIns: [Double] = []
        for round in 0..<100 {
            let start = ContinuousClock.now
            let sent = try await client.postPhone("/api/auth/phone/otp", ["phone": phone(round % 16)], expect: 200)
            let id = try JSONDecoder().decode(Sent.self, from: Data(buffer: sent)).verification_id
            let code = try lastCode(outbox)
            _ = try await client.postPhone("/api/auth/phone/verify", ["verification_id": id, "code": code], expect: 200)
            signIns.append((ContinuousClock.now - start).seconds)
        }
        let sent = sendTimes.withLock { $0 }, tried = verifyTimes.withLock { $0 }
        print(String(format: "POST /api/auth/phone/otp/s at 16 concurrent clients (outbox sender): %.0f; p50 %.2f ms, p99 %.2f ms", sends, sent.milliseconds(at: 0.5), sent.milliseconds(at: 0.99)))
        print(String(format: "POST /api/auth/phone/verify/s (wrong codes) at 16 concurrent clients: %.0f; p50 %.2f ms, p99 %.2f ms", verifies, tried.milliseconds(at: 0.5), tried.milliseconds(at: 0.99)))
        print(String(format: "phone sign-in (send, read the outbox, verify), one at a time: p50 %.2f ms, p99 %.2f ms of 100", signIns.milliseconds(at: 0.5), signIns.milliseconds(at: 0.99)))
        try await client.shutdown()
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    struct Sent: Decodable { let verification_id: String }

    static func lastCode(_ outbox: String) throws -> String {
        struct Line: Decodable { let code: String }
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: outbox))
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: size > 512 ? size - 512 : 0)
        let tail = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        guard let last = tail.split(separator: "\n").last else { throw LoadClient.Failure(description: "empty outbox") }
        return try JSONDecoder().decode(Line.self, from: Data(last.utf8)).code
    }
}
