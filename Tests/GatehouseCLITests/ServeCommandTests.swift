import Foundation
import GatehouseTestSupport
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `gatehouse serve --demo`: the README's first command, started for real on loopback.
@Suite struct ServeCommandTests {
    struct Demo {
        let process: Process
        let url: URL
        let output: String
    }

    /// Starts `serve --demo` on a free port and waits for its announcement.
    static func startDemo(in directory: URL, arguments: [String] = [], waitFor marker: String = "Try: ") async throws -> Demo {
        let process = Process()
        process.executableURL = CLIProcess.binary
        process.arguments = ["serve", "--demo", "--port", "0", "--database", "demo.sqlite", "--log-level", "warning"] + arguments
        process.currentDirectoryURL = directory
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        let collected = Mutex("")
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            collected.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        // Polled without blocking a thread of the cooperative pool, which other tests' servers need.
        let deadline = Date().addingTimeInterval(60)
        while !collected.withLock({ $0.contains(marker) }), Date() < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
        }
        stdout.fileHandleForReading.readabilityHandler = nil
        let output = collected.withLock { $0 }
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("Gatehouse is listening on ") })
        let url = try #require(URL(string: String(line.dropFirst("Gatehouse is listening on ".count))))
        return Demo(process: process, url: url, output: output)
    }

    @Test func demoServerAcceptsTheDemoLoginOverLoopback() async throws {
        let demo = try await Self.startDemo(in: try CLIProcess.temporaryDirectory())
        defer { if demo.process.isRunning { demo.process.terminate() } }
        #expect(demo.output.contains("Demo account: user@example.com / password123"))
        // `serve` handed the process over to gatehouse-server, built beside gatehouse.
        let running = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(demo.process.processIdentifier)/exe")
        #expect(running.hasSuffix("/gatehouse-server"))

        let (data, http) = try await Self.demoLogin(at: demo.url)
        #expect(http.statusCode == 200)
        #expect(Self.children(of: demo.process.processIdentifier, named: "gatehouse-hashe").isEmpty, "no hashing helpers by default")
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-store")
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((body["user"] as? [String: Any])?["email"] as? String == "user@example.com")

        demo.process.terminate()
        demo.process.waitUntilExit()
        #expect(demo.process.terminationStatus == 0, "SIGTERM shuts the server down cleanly")
    }

    /// Issue 41: with `--hashing-helpers` a sign-in's hash runs in a `gatehouse-hasher` process
    /// the server started, and the sign-in answers as without it.
    @Test func hashingHelpersSignInThroughAHelperProcessOfTheServer() async throws {
        let demo = try await Self.startDemo(in: try CLIProcess.temporaryDirectory(), arguments: ["--hashing-helpers"])
        defer { if demo.process.isRunning { demo.process.terminate() } }
        let (_, http) = try await Self.demoLogin(at: demo.url)
        #expect(http.statusCode == 200)
        // The demo account's hash at start and the sign-in's: one helper per hashing thread used.
        let helpers = Self.children(of: demo.process.processIdentifier, named: "gatehouse-hashe")
        #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(helpers.count), "\(helpers)")
        demo.process.terminate()
        demo.process.waitUntilExit()
        #expect(demo.process.terminationStatus == 0)
    }

    /// The processes whose parent is `parent` and whose kernel name is `name` (15 bytes at most).
    static func children(of parent: Int32, named name: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
            else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return stat[stat.index(after: open)..<close] == name && fields.count > 1 && Int32(fields[1]) == parent
        }
    }

    @Test func seed004_demoWithUrbanNestsConfigSignsInByPhoneWithTheCodeFromTheOutbox() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/004-urbannest/gatehouse.json").path
        let demo = try await Self.startDemo(in: directory, arguments: ["--config", config], waitFor: "Demo phone:")
        defer { if demo.process.isRunning { demo.process.terminate() } }
        let outbox = directory.appendingPathComponent("gatehouse-sms-outbox.jsonl").standardizedFileURL.path
        #expect(demo.output.contains("Demo phone: +91 98765 43210 (Demo User); codes are written to \(outbox)"))
        let (sentData, sent) = try await Self.post(#"{"phone":"98765 43210","country":"IN"}"#, to: "api/auth/phone/otp", at: demo.url)
        #expect(sent.statusCode == 200)
        let verificationID = try #require((try JSONSerialization.jsonObject(with: sentData) as? [String: Any])?["verification_id"] as? String)
        let line = try #require(OutboxFile.lines(outbox).last)
        let code = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["code"] as? String)
        let (data, verified) = try await Self.post(
            #"{"verification_id":"\#(verificationID)","code":"\#(code)"}"#, to: "api/auth/phone/verify", at: demo.url
        )
        #expect(verified.statusCode == 200)
        let user = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["user"] as? [String: Any]
        #expect(user?["firstName"] as? String == "Demo" && user?["lastName"] as? String == "User")
        let attributes = try FileManager.default.attributesOfItem(atPath: outbox)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "codes are readable by the owner only")
    }

    /// Issue 36, point 11: the banner names the public URL people open, offers the email demo
    /// account only where the app signs in by password, and SMS name the public URL's host for
    /// WebOTP (they named the listening address, so autofill never matched).
    @Test func I36_theBannerNamesThePublicURLAndOnlyTheWaysInTheAppOffers() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        let config = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/004-urbannest/gatehouse.json").path
        let demo = try await Self.startDemo(
            in: directory, arguments: ["--config", config, "--public-url", "http://localhost:8765"], waitFor: "Demo phone:"
        )
        defer { if demo.process.isRunning { demo.process.terminate() } }
        #expect(demo.output.contains("Open it at http://localhost:8765 (its public URL: passkeys, mail links and SMS use it)"))
        #expect(demo.output.contains("OpenAPI: http://localhost:8765/openapi.yaml"))
        #expect(!demo.output.contains("Demo account:") && !demo.output.contains("Try: curl"), "UrbanNest signs in by phone only")
        let (_, sent) = try await Self.post(#"{"phone":"98765 43210","country":"IN"}"#, to: "api/auth/phone/otp", at: demo.url)
        #expect(sent.statusCode == 200)
        let outbox = directory.appendingPathComponent("gatehouse-sms-outbox.jsonl").path
        let line = try #require(OutboxFile.lines(outbox).last)
        let code = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["code"] as? String)
        #expect(line.contains("@localhost #\(code)"), "\(line)")
    }

    static func post(_ json: String, to path: String, at url: URL) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// Posts seed 000's demo credentials to `/api/auth/login`.
    static func demoLogin(at url: URL) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url.appendingPathComponent("api/auth/login"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"email":"user@example.com","password":"password123"}"#.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// Issue 10, finding 7: `--demo` creates the account only when it is missing; a password
    /// or a lock the operator set survives a restart.
    @Test func F7_demoNeverResetsAnExistingDemoAccount() async throws {
        let directory = try CLIProcess.temporaryDirectory()
        let first = try await Self.startDemo(in: directory)
        let (_, fresh) = try await Self.demoLogin(at: first.url)
        #expect(fresh.statusCode == 200, "a new database gets the demo account")
        first.process.terminate()
        first.process.waitUntilExit()
        let changed = try await CLIProcess.run(
            ["users", "set-password", "--email", "user@example.com", "--database", "demo.sqlite", "--password-stdin"],
            input: "changed-password", in: directory
        )
        #expect(changed.status == 0)
        let locked = try await CLIProcess.run(["users", "lock", "--email", "user@example.com", "--database", "demo.sqlite"], in: directory)
        #expect(locked.status == 0)
        let second = try await Self.startDemo(in: directory)
        let (_, http) = try await Self.demoLogin(at: second.url)
        #expect(http.statusCode == 401, "the demo password was not reset")
        second.process.terminate()
        second.process.waitUntilExit()
        let list = try await CLIProcess.run(["users", "list", "--database", "demo.sqlite"], in: directory)
        #expect(list.stdout.components(separatedBy: "user@example.com").count == 2, "exactly one demo account")
        #expect(list.stdout.contains("locked"), "the lock was kept: \(list.stdout)")
    }
}
