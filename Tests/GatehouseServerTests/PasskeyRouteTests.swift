import Foundation
import GatehouseCore
import GatehouseHTTP
import GatehouseModel
import GatehouseServer
import GatehouseTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LoginCore
import Testing

/// Issue 23 over REST: enrol after a password sign-in, sign in with the passkey, and every
/// refusal the pipeline adds (challenges, limits, removal), with the software authenticator.
@Suite struct PasskeyRouteTests {
    /// The fixture's public URL is the listening address, `http://127.0.0.1:0`.
    static let origin = "http://127.0.0.1:0"

    struct Options<T: Decodable>: Decodable {
        let options: T
        let expires_in: Int
    }

    @Test func P01_aPasskeyEnrolsAfterAPasswordSignInAndSignsInWithES256AndRS256() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            for (index, algorithm) in [COSEAlgorithm.es256, COSEAlgorithm.rs256].enumerated() {
                let authenticator = SoftwareAuthenticator(origin: Self.origin)
                authenticator.configure { $0.algorithm = algorithm }
                let grant = try await client.grant()
                let added = try await client.registerPasskey(authenticator, token: grant.accessToken, name: "Phone \(index)")
                #expect(added.status == .created)
                #expect(try added.decoded(PasskeySummary.self).name == "Phone \(index)")
                let signIn = try await client.signInWithPasskey(authenticator)
                #expect(signIn.status == .ok && signIn.headers[.cacheControl] == "no-store")
                #expect(signIn.headers[.gatehouseDevice] != nil)
                let tokens = try signIn.decoded(TokenGrant.self)
                #expect(tokens.user.email == Fixture.email)
                #expect(try await client.me(tokens.accessToken).status == .ok)
                fixture.clock.advance(by: 1)
            }
            let grant = try await client.grant()
            let list = try await client.execute(uri: "/api/auth/passkeys", method: .get, headers: [.authorization: "Bearer \(grant.accessToken)"])
            struct List: Decodable { let passkeys: [PasskeySummary] }
            let passkeys = try list.decoded(List.self).passkeys
            #expect(passkeys.map(\.name) == ["Phone 0", "Phone 1"])
            #expect(passkeys.allSatisfy { $0.lastUsedAt != nil && !$0.synced })
        }
    }

    @Test func P02_theOptionsAreAPasskeysAndTheUserHandleIsRandomNotTheEmail() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let grant = try await client.grant()
            let first = try await client.postJSON("/api/auth/passkeys/registration/options", "", headers: [.authorization: "Bearer \(grant.accessToken)"])
            #expect(first.status == .ok && first.headers[.cacheControl] == "no-store")
            let options = try first.decoded(Options<PasskeyCreationOptions>.self)
            #expect(options.expires_in == 300)
            let creation = options.options
            #expect(creation.authenticatorSelection == .passkey && creation.attestation == "none")
            #expect(creation.pubKeyCredParams.map(\.alg) == [-7, -257] && creation.rp.id == "127.0.0.1")
            let handle = try #require(Data(base64URLEncoded: creation.user.id))
            #expect(handle.count == 32 && !String(decoding: handle, as: UTF8.self).contains("example"))
            #expect(creation.user.name == Fixture.email && creation.excludeCredentials.isEmpty)
            #expect(try #require(Data(base64URLEncoded: creation.challenge)).count == 32)
            let authenticator = SoftwareAuthenticator(origin: Self.origin)
            _ = try await client.registerPasskey(authenticator, token: grant.accessToken)
            let second = try await client.postJSON("/api/auth/passkeys/registration/options", "", headers: [.authorization: "Bearer \(grant.accessToken)"])
            let again = try second.decoded(Options<PasskeyCreationOptions>.self).options
            #expect(again.user.id == Data(authenticator.credentials[0].userHandle).base64URLEncoded(), "the stored handle, from now on")
            let third = try await client.postJSON("/api/auth/passkeys/registration/options", "", headers: [.authorization: "Bearer \(grant.accessToken)"])
            #expect(try third.decoded(Options<PasskeyCreationOptions>.self).options.user.id == again.user.id, "one handle per account")
            #expect(again.excludeCredentials.map(\.id) == [Data(authenticator.credentials[0].id).base64URLEncoded()])
            let login = try await client.postJSON("/api/auth/passkeys/authentication/options", "")
            let request = try login.decoded(Options<PasskeyRequestOptions>.self).options
            #expect(request.allowCredentials.isEmpty && request.userVerification == "required" && request.rpId == "127.0.0.1")
            let stored = try await fixture.storedText(["one_time_secrets"])
            #expect(!stored.contains(request.challenge), "challenges are stored hashed")
        }
    }

    @Test func P03_addingAPasskeyNeedsASignInWithinTenMinutes() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let grant = try await client.grant()
            fixture.clock.advance(by: 601)
            let refreshed = try await client.refresh(grant.refreshToken).decoded(TokenGrant.self)
            let late = try await client.postJSON("/api/auth/passkeys/registration/options", "", headers: [.authorization: "Bearer \(refreshed.accessToken)"])
            #expect(late.status == .unauthorized)
            #expect(try late.decoded(ErrorBody.self).error == "reauthentication_required", "a refresh is not a sign-in")
            let anonymous = try await client.postJSON("/api/auth/passkeys/registration/options", "")
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func P04_challengesAreSingleUseExpiringAndBoundToTheirSession() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let authenticator = SoftwareAuthenticator(origin: Self.origin)
            let grant = try await client.grant()
            _ = try await client.registerPasskey(authenticator, token: grant.accessToken)
            let options = try await client.postJSON("/api/auth/passkeys/authentication/options", "").decoded(Options<PasskeyRequestOptions>.self).options
            let assertion = try await authenticator.authenticate(options)
            #expect(try await client.verifyPasskey(assertion).status == .ok)
            let replay = try await client.verifyPasskey(assertion)
            #expect(replay.status == .badRequest)
            #expect(try replay.decoded(ErrorBody.self).error == "passkey_challenge_expired")
            let later = try await client.postJSON("/api/auth/passkeys/authentication/options", "").decoded(Options<PasskeyRequestOptions>.self).options
            let stale = try await authenticator.authenticate(later)
            fixture.clock.advance(by: 301)
            #expect(try await client.verifyPasskey(stale).decoded(ErrorBody.self).error == "passkey_challenge_expired")
            // A registration challenge issued to one session cannot be finished by another.
            let mine = try await client.grant()
            let theirs = try await client.grant()
            let creation = try await client.postJSON("/api/auth/passkeys/registration/options", "", headers: [.authorization: "Bearer \(mine.accessToken)"])
                .decoded(Options<PasskeyCreationOptions>.self).options
            let credential = try await SoftwareAuthenticator(origin: Self.origin).register(creation)
            let stolen = try await client.postJSON(
                "/api/auth/passkeys/registration/verify", try Self.json(["credential": credential]), headers: [.authorization: "Bearer \(theirs.accessToken)"]
            )
            #expect(try stolen.decoded(ErrorBody.self).error == "passkey_challenge_expired")
        }
    }

    /// The challenge is spent with the session it opens (one commit), and a refused assertion
    /// spends it at once: the genuine assertion cannot follow a forged one for the same challenge.
    @Test func P04_aRefusedAssertionSpendsItsChallengeAndTheGenuineOneCannotFollow() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let authenticator = SoftwareAuthenticator(origin: Self.origin)
            let grant = try await client.grant()
            _ = try await client.registerPasskey(authenticator, token: grant.accessToken)
            let earlier = try await authenticator.authenticate(
                try await client.postJSON("/api/auth/passkeys/authentication/options", "").decoded(Options<PasskeyRequestOptions>.self).options
            )
            let options = try await client.postJSON("/api/auth/passkeys/authentication/options", "").decoded(Options<PasskeyRequestOptions>.self).options
            let genuine = try await authenticator.authenticate(options)
            var forged = genuine
            forged.response.signature = earlier.response.signature  // signed over another challenge
            let refused = try await client.verifyPasskey(forged)
            #expect(refused.status == .unauthorized)
            #expect(try refused.decoded(ErrorBody.self).error == "passkey_rejected")
            let after = try await client.verifyPasskey(genuine)
            #expect(after.status == .badRequest)
            #expect(try after.decoded(ErrorBody.self).error == "passkey_challenge_expired", "the refusal spent the challenge")
            // The earlier challenge, never presented, still opens a session, once.
            #expect(try await client.verifyPasskey(earlier).status == .ok)
            #expect(try await client.verifyPasskey(earlier).decoded(ErrorBody.self).error == "passkey_challenge_expired")
        }
    }

    @Test func P05_aCredentialRegisteredOnceIsRefusedAgainWith409() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let authenticator = SoftwareAuthenticator(origin: Self.origin)
            authenticator.configure { $0.credentialID = Array(repeating: 42, count: 16) }
            let grant = try await client.grant()
            #expect(try await client.registerPasskey(authenticator, token: grant.accessToken).status == .created)
            let twice = try await client.registerPasskey(authenticator, token: grant.accessToken)
            #expect(twice.status == .conflict)
            #expect(try twice.decoded(ErrorBody.self).error == "passkey_taken")
        }
    }

    @Test func P06_aTamperedResponseIsRefusedAndCountsAgainstTheLimits() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let authenticator = SoftwareAuthenticator(origin: Self.origin)
            _ = try await client.registerPasskey(authenticator, token: try await client.grant().accessToken)
            authenticator.configure { $0.corruptSignature = true }
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<6 { statuses.append(try await client.signInWithPasskey(authenticator).status) }
            #expect(statuses.prefix(5).allSatisfy { $0 == .unauthorized }, "\(statuses)")
            #expect(statuses.last == .tooManyRequests, "the fifth failure starts the back-off, as for passwords")
            authenticator.configure { $0.corruptSignature = false; $0.userVerified = false }
            fixture.clock.advance(by: 3600)
            let unverified = try await client.signInWithPasskey(authenticator)
            #expect(unverified.status == .badRequest)
            #expect(try unverified.decoded(ErrorBody.self).error == "passkey_rejected")
        }
    }

    /// Issue 35, point 12: a passkey's name with a bidi override, an isolate, a zero-width
    /// space or nothing visible is refused, and the name it had is kept.
    @Test func S12_passkeyNamesWithInvisibleOrDirectionCharactersAreRefused() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let authenticator = SoftwareAuthenticator(origin: Self.origin)
            let grant = try await client.grant()
            let id = try await client.registerPasskey(authenticator, token: grant.accessToken).decoded(PasskeySummary.self).id
            let headers: HTTPFields = [.authorization: "Bearer \(grant.accessToken)", .contentType: "application/json"]
            for name in [#"evil\u202egnp.exe"#, #"a\u2066b\u2069"#, #"Work\u200blaptop"#, #"\ufeff"#, #"\u200d"#] {
                let refused = try await client.execute(
                    uri: "/api/auth/passkeys/\(id)", method: .patch, headers: headers, body: ByteBuffer(string: #"{"name":"\#(name)"}"#)
                )
                #expect(refused.status == .badRequest, "\(name)")
            }
            let listed = try await client.execute(uri: "/api/auth/passkeys", method: .get, headers: headers)
            struct Listed: Decodable { let passkeys: [PasskeySummary] }
            let names = try listed.decoded(Listed.self).passkeys.map(\.name)
            #expect(names.count == 1 && names.allSatisfy { !$0.unicodeScalars.contains { $0.properties.generalCategory == .format } })
        }
    }

    /// Issue 35, point 15: an app that requires a verified email refuses a passkey sign-in to
    /// an unverified account exactly as it refuses its password: one rule for every grant.
    @Test func S15_aPasskeySignInToAnUnverifiedAccountIsRefusedWhereVerifiedEmailIsRequired() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        _ = try await fixture.withAdministration {
            try await $0.create(email: "unverified@example.com", name: PersonName(full: "Una"), password: "password456", emailVerified: false)
        }
        let authenticator = SoftwareAuthenticator(origin: Self.origin)
        try await fixture.test { client in
            let grant = try await client.grant("unverified@example.com", "password456")
            #expect(try await client.registerPasskey(authenticator, token: grant.accessToken).status == .created)
            #expect(try await client.signInWithPasskey(authenticator).status == .ok)
        }
        let refused = try await fixture.test(EmailAccountTests.accountsOn(fixture)) { client in
            let password = try await client.login("unverified@example.com", "password456")
            #expect(password.status == .forbidden)
            #expect(try password.decoded(ErrorBody.self).error == "email_not_verified")
            let options = try await client.postJSON("/api/auth/passkeys/authentication/options", "").decoded(Options<PasskeyRequestOptions>.self).options
            let refused = try await authenticator.authenticate(options)
            let passkey = try await client.verifyPasskey(refused)
            #expect(passkey.status == .forbidden)
            #expect(try passkey.decoded(ErrorBody.self).error == "email_not_verified")
            // A verified account's passkey still signs in.
            let verified = SoftwareAuthenticator(origin: Self.origin)
            fixture.clock.advance(by: 1)
            _ = try await client.registerPasskey(verified, token: try await client.grant().accessToken)
            #expect(try await client.signInWithPasskey(verified).status == .ok)
            return refused
        }
        try await fixture.test { client in
            // The refusal spent its challenge: the same assertion opens nothing where the rule is off.
            let replay = try await client.verifyPasskey(refused)
            #expect(try replay.decoded(ErrorBody.self).error == "passkey_challenge_expired")
        }
    }

    @Test func P07_aRemovedPasskeyIsUnknownAndRenameAndRemoveAreTheOwnersOnly() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.withAdministration { try await $0.create(email: "other@example.com", name: "Other", password: "password456") }
        try await fixture.test { client in
            let authenticator = SoftwareAuthenticator(origin: Self.origin)
            let grant = try await client.grant()
            let id = try await client.registerPasskey(authenticator, token: grant.accessToken).decoded(PasskeySummary.self).id
            let other = try await client.grant("other@example.com", "password456")
            let foreign = try await client.execute(uri: "/api/auth/passkeys/\(id)", method: .delete, headers: [.authorization: "Bearer \(other.accessToken)"])
            #expect(foreign.status == .notFound)
            let renamed = try await client.execute(
                uri: "/api/auth/passkeys/\(id)", method: .patch, headers: [.authorization: "Bearer \(grant.accessToken)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"name":"  Work laptop  "}"#)
            )
            #expect(try renamed.decoded(PasskeySummary.self).name == "Work laptop")
            let blank = try await client.execute(
                uri: "/api/auth/passkeys/\(id)", method: .patch, headers: [.authorization: "Bearer \(grant.accessToken)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"name":"\u0007"}"#)
            )
            #expect(blank.status == .badRequest)
            let removed = try await client.execute(uri: "/api/auth/passkeys/\(id)", method: .delete, headers: [.authorization: "Bearer \(grant.accessToken)"])
            #expect(removed.status == .noContent)
            let after = try await client.signInWithPasskey(authenticator)
            #expect(after.status == .unauthorized)
            #expect(try after.decoded(ErrorBody.self).error == "passkey_unknown")
            let identities = try await fixture.storedText(["identities"])
            #expect(!identities.contains("passkey"), "the user handle goes with the last passkey")
        }
    }

    @Test func P08_theWellKnownFilesComeFromTheAppFile() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test { client in
            let apple = try await client.execute(uri: "/.well-known/apple-app-site-association", method: .get)
            let android = try await client.execute(uri: "/.well-known/assetlinks.json", method: .get)
            #expect(apple.status == .notFound && android.status == .notFound, "nothing to publish without apps")
        }
        try await fixture.test({ configuration in
            configuration.passkeys = PasskeyOptions(
                appleAppIDs: ["ABCDE12345.org.example.app"],
                androidApps: [.init(package: "org.example.app", sha256CertFingerprints: ["AA:BB"])]
            )
        }) { client in
            let apple = try await client.execute(uri: "/.well-known/apple-app-site-association", method: .get)
            #expect(String(buffer: apple.body) == #"{"webcredentials":{"apps":["ABCDE12345.org.example.app"]}}"#)
            #expect(apple.headers[.contentType] == "application/json")
            let android = try await client.execute(uri: "/.well-known/assetlinks.json", method: .get)
            #expect(String(buffer: android.body) == #"[{"relation":["delegate_permission\/common.get_login_creds"],"target":{"namespace":"android_app","package_name":"org.example.app","sha256_cert_fingerprints":["AA:BB"]}}]"#.replacingOccurrences(of: "\\/", with: "/"))
        }
    }

    struct Registration: Encodable {
        let credential: PasskeyRegistrationJSON
        let name: String?
    }

    @Test func P09_challengesAreCountedPerAddressBeforeAnyIsStored() async throws {
        let fixture = try await Fixture(argon2: Fixture.cheap)
        try await fixture.test({ $0.abuse.addressLimit = 3 }) { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<4 { statuses.append(try await client.postJSON("/api/auth/passkeys/authentication/options", "").status) }
            #expect(statuses == [.ok, .ok, .ok, .tooManyRequests])
            let stored = try await fixture.storedText(["one_time_secrets"])
            #expect(stored.components(separatedBy: "passkey_authentication").count - 1 == 3, "the refused request stored nothing")
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

extension TestClientProtocol {
    /// Options, the authenticator's `create()`, and verify; the verify response.
    func registerPasskey(_ authenticator: SoftwareAuthenticator, token: String, name: String? = nil) async throws -> TestResponse {
        let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
        let answer = try await postJSON("/api/auth/passkeys/registration/options", "", headers: bearer)
        let options = try answer.decoded(PasskeyRouteTests.Options<PasskeyCreationOptions>.self).options
        let credential = try await authenticator.register(options)
        return try await postJSON(
            "/api/auth/passkeys/registration/verify", try PasskeyRouteTests.json(PasskeyRouteTests.Registration(credential: credential, name: name)), headers: bearer
        )
    }

    /// Options, the authenticator's `get()`, and verify; the verify response.
    func signInWithPasskey(_ authenticator: SoftwareAuthenticator) async throws -> TestResponse {
        let answer = try await postJSON("/api/auth/passkeys/authentication/options", "")
        return try await verifyPasskey(try await authenticator.authenticate(answer.decoded(PasskeyRouteTests.Options<PasskeyRequestOptions>.self).options))
    }

    func verifyPasskey(_ assertion: PasskeyAssertionJSON) async throws -> TestResponse {
        try await postJSON("/api/auth/passkeys/authentication/verify", try PasskeyRouteTests.json(["credential": assertion]))
    }
}
