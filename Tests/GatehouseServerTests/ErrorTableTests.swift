import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import GraphQL
import GraphQLSurface
import LoginCore
import SupabaseSurface
import Testing
import WebSurface

/// Issue 20's one vocabulary: every domain error renders, on GraphQL and Supabase Auth, to a code
/// of the typed tables the SDK reads (`GraphQLErrorCode`, `GoTrueErrorCode`), and each table
/// leads back to the REST code of the same error, so a client learns the same thing whichever
/// backend it speaks.
@Suite struct ErrorTableTests {
    static let every: [GatehouseError] = ErrorVocabularyTests.every + ProviderErrorVocabularyTests.every.filter { $0 != .providerSignIn(.notConfigured) } + [
        .payloadTooLarge(limit: 16_384), .resendTooSoon(retryAfter: 33), .invalidPhone, .accountNotFound, .phoneTaken,
        .codeRejected(.incorrect(attemptsLeft: 3)), .codeRejected(.expired), .codeRejected(.exhausted), .smsUnavailable(retryAfter: 30),
        .methodNotOffered(.email), .methodNotOffered(.phone), .methodNotOffered(.google), .formExpired,
    ]

    /// The REST code of an error, as the typed REST table names it.
    static func rest(_ error: GatehouseError) -> ServerErrorCode { APIError(error).code }

    @Test func I20_everyGraphQLCodeIsInTheSharedTableAndLeadsToTheRESTCode() throws {
        for error in Self.every {
            let rendered = GraphQLFailure.make(error, messages: MessageCatalogue())
            guard case .string(let raw)? = rendered.extensions["code"] else { Issue.record("no code for \(error)"); continue }
            let code = try #require(GraphQLErrorCode(rawValue: raw), "\(raw) is not in GraphQLErrorCode")
            switch error {
            case .invalidRequest, .payloadTooLarge: #expect(code.serverCode == ServerErrorCode.invalidRequest)
            case .unauthenticated, .invalidToken, .sessionEnded: #expect(code == .unauthenticated)
            case .formExpired: #expect(code == .badUserInput, "a web form's error, never a GraphQL one")
            default: #expect(code.serverCode == Self.rest(error), "\(error): GraphQL \(raw), REST \(Self.rest(error))")
            }
        }
    }

    @Test func I20_everyGoTrueCodeIsInTheSharedTableAndLeadsToTheRESTCode() {
        for error in Self.every {
            let code = GoTrueError(error).errorCode
            switch error {
            // GoTrue has one code for every bad token and every ended session, and reports an
            // exhausted code as a rate limit: its own vocabulary, kept as Supabase clients expect.
            case .unauthenticated, .invalidToken, .sessionEnded, .overloaded, .payloadTooLarge, .codeRejected, .refreshRejected(.accountLocked),
                 .formExpired:
                continue
            // Where GoTrue's vocabulary is coarser than REST's, the table says so exactly.
            case .providerSignIn(.providerUnavailable):
                #expect(code == .unexpectedFailure && code.serverCode == nil, "a 502 the SDK reads as the provider failing")
            case .providerSignIn(.invalidToken):
                #expect(code == .badJWT, "bad_jwt: a refused ID token on a sign-in, read by context")
            case .invalidRequest, .invalidPhone, .providerSignIn(.redirectNotAllowed):
                #expect(code == .validationFailed && code.serverCode == .invalidRequest)
            case .methodNotOffered(.google):
                #expect(code == .providerDisabled && code.serverCode == .providerDisabled)
            default:
                #expect(code.serverCode == Self.rest(error), "\(error): GoTrue \(code), REST \(Self.rest(error))")
            }
        }
    }
}

/// Typed limit keys keep the stored counter names of earlier releases, so counters running
/// through an upgrade carry on, and no two kinds of counter can share a row.
@Suite struct LimitKeyTests {
    @Test func I20_storageKeysAreTheEarlierNamesAndAllDistinct() {
        let keys: [LimitKey] = [
            .signInAddress("203.0.113.1"), .failureStreak(account: "ref", device: "dev", address: "203.0.113.1"),
            .failureStreak(account: "ref", device: nil, address: "203.0.113.1"), .accountFailures(account: "ref"),
            .phoneAddress("203.0.113.1"), .phoneSends(phone: "ref"), .phoneDay(phone: "ref"), .smsBudget,
            .providerStarts("203.0.113.1"), .spentIDToken("hash"),
        ]
        #expect(keys.map(\.storageKey) == [
            "addr:203.0.113.1", "fail:ref:dev:dev", "fail:ref:ip:203.0.113.1", "acct:ref", "phone-address:203.0.113.1",
            "phone-sends:ref", "phone-day:ref", "sms-global", "oidcstart:203.0.113.1", "idtoken-used:hash",
        ])
        #expect(Set(keys.map(\.storageKey)).count == keys.count)
    }

    @Test func I20_aCounterPastItsMaximumRefusesWithTheWaitUntilItsWindowEnds() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let counter = ThrottleCounter(windowStart: start, count: 4, lastHit: start.addingTimeInterval(10))
        #expect(counter.wait(window: 900, now: start.addingTimeInterval(10.2)) == 890)
        #expect(counter.wait(window: 900, now: start.addingTimeInterval(950)) == 1, "never less than a second")
    }
}

/// The `?signin=…&provider=…` landing is typed at both ends: every refused provider sign-in lands on a value
/// the page knows, and every value the page knows leads to the button's outcome (or Home's notice).
@Suite struct ProviderLandingTests {
    @Test func I20_everyRefusalLandsOnAValueThePageTurnsBackIntoItsOutcome() {
        let expected: [(GatehouseError, ProviderLanding)] = [
            (.providerSignIn(.cancelled), .cancelled), (.providerSignIn(.linkRequired), .linkRequired),
            (.providerSignIn(.invalidCode), .rejected), (.providerSignIn(.invalidFlow), .rejected),
            (.providerSignIn(.invalidToken("nonce mismatch")), .rejected), (.providerSignIn(.providerUnavailable), .failed),
            (.rateLimited(retryAfter: 9), .rateLimited), (.accountLocked, .locked), (.lastSignInMethod, .lastMethod),
            (.methodNotOffered(.google), .failed),
        ]
        for (error, landing) in expected {
            #expect(ProviderLanding(error) == landing, "\(error)")
            #expect(ProviderLanding(rawValue: landing.rawValue) == landing, "its URL value reads back")
        }
        #expect(ProviderLanding.allCases.filter { $0.outcome == nil } == [.lastMethod], "only Home's notice is no button outcome")
        #expect(ProviderLanding.rejected.url("/login", provider: .google) == "/login?signin=rejected&provider=google")
        #expect(ProviderLanding.cancelled.url("/home", provider: .github) == "/home?signin=cancelled&provider=github")
        #expect(ProviderLanding(rawValue: "<script>") == nil, "a hand-typed value shows nothing")
    }
}
