import Foundation
import GatehouseCore
import GatehouseServer
import HTTPTypes
import Synchronization
import Testing

/// Issue 20's event sink: the pipeline reports what it decided (a refusal, a sign-in, an ended
/// session) to one sink, with the client's address and device, and nothing secret; issue 24's
/// audit log is a sink.
@Suite struct SecurityEventTests {
    /// Keeps what it is given, as the audit log will.
    final class Recorder: EventSink {
        struct Entry: Equatable {
            var event: SecurityEvent
            var address: String?
            var device: String?
        }

        let entries = Mutex<[Entry]>([])

        func record(_ event: SecurityEvent, at date: Date, address: String?, device: String?) {
            entries.withLock { $0.append(Entry(event: event, address: address, device: device)) }
        }

        var all: [Entry] { entries.withLock { $0 } }
    }

    @Test func I20_thePipelineReportsRefusalsSignInsAndEndedSessionsWithNothingSecret() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        let recorder = Recorder()
        try await fixture.test({ $0.events = recorder }) { client in
            let iPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"
            #expect(try await client.login(Fixture.email, "wrong-password", headers: [.userAgent: iPhone]).status == .unauthorized)
            #expect(try await client.login("nobody@example.com", "wrong-password").status == .unauthorized)
            let response = try await client.login(Fixture.email, Fixture.password, headers: [.userAgent: iPhone])
            let grant = try response.decoded(TokenGrant.self)
            #expect(try await client.logout(grant.accessToken).status == .noContent)

            let entries = recorder.all
            try #require(entries.count == 4, "\(entries)")
            guard case .signInRefused(let known, .password, .invalidCredentials, nil) = entries[0].event,
                  case .signInRefused(let unknown, .password, .invalidCredentials, nil) = entries[1].event
            else { Issue.record("refusals: \(entries)"); return }
            // Accounts are named by keyed references: never the email typed, known or not.
            #expect(known.count == 32 && unknown.count == 32 && known != unknown)
            #expect(entries[0].device == "iPhone · Safari")
            guard case .signInSucceeded(let userID, let sessionID, .password) = entries[2].event else {
                Issue.record("sign-in: \(entries[2])"); return
            }
            #expect(userID == grant.user.id && entries[2].device == "iPhone · Safari")
            #expect(entries[3].event == .sessionEnded(userID: userID, sessionID: sessionID, reason: .logoutLocal))
            #expect(entries[3].device == "iPhone · Safari")
            let described = entries.map { "\($0)" }.joined()
            for secret in [Fixture.password, "wrong-password", Fixture.email, "nobody@example.com", grant.accessToken, grant.refreshToken] {
                #expect(!described.contains(secret), "an event carries a secret or an identifier")
            }
        }
    }
}
