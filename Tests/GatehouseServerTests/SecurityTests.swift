import Foundation
import GatehouseCore
import GatehouseHTTP
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

/// Secrets stay secret: refresh tokens stored hashed, nothing sensitive in the logs.
@Suite struct SecurityTests {
    @Test func refreshTokensHave256RandomBitsAndAreStoredOnlyAsHashes() async throws {
        let fixture = try await Fixture()
        let grants = try await fixture.test { client in
            let first = try await client.grant()
            let second = try await client.refresh(first.refreshToken).decoded(TokenGrant.self)
            return [first, second]
        }
        for grant in grants {
            let body = grant.refreshToken.dropFirst("ghr_".count)
            #expect(body.count == 43, "256 bits in unpadded base64url")
        }
        let stored = try await fixture.storedText()
        #expect(stored.contains(Fixture.email), "the dump reads real rows")
        for grant in grants {
            #expect(!stored.contains(grant.refreshToken))
            #expect(!stored.contains(grant.refreshToken.dropFirst(4)))
        }
    }

    @Test func A17_logsNeverContainPasswordsOrTokens() async throws {
        let fixture = try await Fixture()
        let sink = LogSink()
        var logger = Logger(label: "capture") { _ in sink }
        logger.logLevel = .trace
        let secrets = try await fixture.test({ $0.logRequests = true }, logger: logger) { client in
            let grant = try await client.grant()
            _ = try await client.login(Fixture.email, "a-wrong-password")
            let refreshed = try await client.refresh(grant.refreshToken).decoded(TokenGrant.self)
            _ = try await client.me(refreshed.accessToken)
            _ = try await client.logout(refreshed.accessToken)
            return [Fixture.password, "a-wrong-password", grant.accessToken, grant.refreshToken,
                    refreshed.accessToken, refreshed.refreshToken]
        }
        let text = sink.text
        #expect(text.contains("Sign-in succeeded"), "the capture works")
        for secret in secrets {
            #expect(!text.contains(secret))
        }
    }
}

/// A log handler that keeps every line in memory.
final class LogSink: LogHandler, Sendable {
    private let lines = Mutex<[(Logger.Level, String)]>([])
    var text: String { lines.withLock { $0.map(\.1).joined(separator: "\n") } }
    /// Only what is logged at info or above: what an operator sees by default.
    var operatorText: String { lines.withLock { $0.filter { $0.0 >= .info }.map(\.1).joined(separator: "\n") } }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }
    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append((event.level, "\(event.level) \(event.message) \(event.metadata ?? [:])")) }
    }
}
