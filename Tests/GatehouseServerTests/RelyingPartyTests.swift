import Foundation
import GatehouseCore
import GatehouseModel
import GatehouseTestSupport
import Testing

/// Every check of WebAuthn §7.1 and §7.2 in the core, passing and failing, with the software
/// authenticator bent one way at a time.
@Suite struct RelyingPartyTests {
    static let origin = "https://login.example.com"
    static let party = RelyingParty(id: "login.example.com", name: "Example", origins: [origin, "android:apk-key-hash:abc"])

    static func creation(challenge: String = "Y2hhbGxlbmdl", algorithms: [Int] = [COSEAlgorithm.es256, COSEAlgorithm.rs256]) -> PasskeyCreationOptions {
        PasskeyCreationOptions(
            rp: .init(id: "login.example.com", name: "Example"), user: .init(id: Data(repeating: 7, count: 32).base64URLEncoded(), name: "a@example.com", displayName: "A"),
            challenge: challenge, pubKeyCredParams: algorithms.map(PasskeyCreationOptions.Parameter.init), timeout: 300_000, excludeCredentials: []
        )
    }

    /// Registers with the authenticator as configured; returns the verdict.
    static func register(_ change: (inout SoftwareAuthenticator.Behaviour) -> Void = { _ in }) async throws -> Result<NewPasskey, PasskeyFailure> {
        let authenticator = SoftwareAuthenticator(origin: origin)
        authenticator.configure(change)
        let json = try await authenticator.register(creation())
        do {
            return .success(try party.verifyRegistration(try PasskeyRegistration(json)))
        } catch {
            return .failure(error)
        }
    }

    /// Registers honestly, then asserts with the authenticator bent by `change`; returns the verdict.
    static func assert(
        algorithm: Int = COSEAlgorithm.es256, storedSignCount: UInt32 = 0, storedSynced: Bool = false,
        _ change: (inout SoftwareAuthenticator.Behaviour) -> Void = { _ in }
    ) async throws -> Result<PasskeyUse, PasskeyFailure> {
        let authenticator = SoftwareAuthenticator(origin: origin)
        authenticator.configure { $0.algorithm = algorithm }
        let made = try party.verifyRegistration(try PasskeyRegistration(try await authenticator.register(creation())))
        var record = PasskeyRecord(
            userID: "u", credentialID: made.credentialID, publicKey: made.publicKey, algorithm: made.algorithm, signCount: made.signCount,
            backupEligible: made.backupEligible, backedUp: made.backedUp, transports: [], name: "x", createdAt: Date()
        )
        record.signCount = storedSignCount
        record.backupEligible = storedSynced
        authenticator.configure(change)
        let json = try await authenticator.authenticate(PasskeyRequestOptions(challenge: "Z2V0", timeout: 300_000, rpId: "login.example.com"))
        do {
            let assertion = try PasskeyAssertion(json)
            return .success(try party.verifyAssertion(assertion, clientData: try ClientData.parse(assertion.clientDataJSON), credential: record))
        } catch {
            return .failure(error)
        }
    }

    static func failure<T>(_ result: Result<T, PasskeyFailure>) -> PasskeyFailure? {
        if case .failure(let failure) = result { failure } else { nil }
    }

    @Test func R01_anHonestES256AndRS256RegistrationAndAssertionPass() async throws {
        for algorithm in [COSEAlgorithm.es256, COSEAlgorithm.rs256] {
            let made = try await Self.register { $0.algorithm = algorithm }.get()
            #expect(made.algorithm == algorithm && made.credentialID.count == 16 && made.signCount == 0)
            #expect(!made.backupEligible && !made.backedUp && made.transports == ["internal"])
            let use = try await Self.assert(algorithm: algorithm).get()
            #expect(use == PasskeyUse(signCount: 1, backedUp: false, cloneWarning: false))
        }
    }

    @Test func R02_clientDataTypeOriginAndFramingAreChecked() async throws {
        #expect(Self.failure(try await Self.register { $0.clientDataType = "webauthn.get" }) == .wrongType)
        #expect(Self.failure(try await Self.assert { $0.clientDataType = "webauthn.create" }) == .wrongType)
        #expect(Self.failure(try await Self.register { $0.origin = "https://evil.example.com" }) == .originNotAllowed)
        #expect(Self.failure(try await Self.assert { $0.origin = "https://login.example.com:8443" }) == .originNotAllowed, "exact origins only")
        #expect(Self.failure(try await Self.register { $0.crossOrigin = true }) == .crossOrigin)
        #expect(Self.failure(try await Self.assert { $0.topOrigin = Self.origin }) == .crossOrigin)
        #expect((try? await Self.register { $0.crossOrigin = false }.get()) != nil, "crossOrigin false is fine")
        #expect((try? await Self.assert { $0.origin = "android:apk-key-hash:abc" }.get()) != nil, "an extra origin is allowed")
    }

    /// Issue 35, point 17: client data that names a member twice is refused, never read as its
    /// first occurrence (which another verifier would read as the last).
    @Test func S17_clientDataNamingAMemberTwiceIsRefused() throws {
        let honest = #"{"type":"webauthn.get","challenge":"abc","origin":"https://login.example.com"}"#
        #expect(try ClientData.parse(Array(honest.utf8)).challenge == "abc")
        let doubled = [
            #"{"type":"webauthn.get","challenge":"abc","challenge":"evil","origin":"https://login.example.com"}"#,
            #"{"type":"webauthn.get","challenge":"abc","origin":"https://login.example.com","origin":"https://evil.example"}"#,
            #"{"type":"webauthn.get","challenge":"abc","\u0063hallenge":"evil","origin":"https://login.example.com"}"#,
        ]
        for json in doubled {
            #expect(throws: PasskeyFailure.malformed("clientDataJSON")) { try ClientData.parse(Array(json.utf8)) }
        }
    }

    @Test func R03_authenticatorDataFlagsAndHashAreChecked() async throws {
        #expect(Self.failure(try await Self.register { $0.rpID = "example.com" }) == .rpIDMismatch)
        #expect(Self.failure(try await Self.assert { $0.rpID = "evil.example.com" }) == .rpIDMismatch)
        #expect(Self.failure(try await Self.register { $0.userPresent = false }) == .userNotPresent)
        #expect(Self.failure(try await Self.assert { $0.userPresent = false }) == .userNotPresent)
        #expect(Self.failure(try await Self.register { $0.userVerified = false }) == .userNotVerified)
        #expect(Self.failure(try await Self.assert { $0.userVerified = false }) == .userNotVerified)
        #expect(Self.failure(try await Self.register { $0.backedUp = true }) == .backupStateInvalid)
        #expect(Self.failure(try await Self.assert { $0.backedUp = true }) == .backupStateInvalid)
        #expect(Self.failure(try await Self.register { $0.trailingBytes = [0] }) == .malformed("authenticator data has trailing bytes"))
        #expect(Self.failure(try await Self.assert { $0.trailingBytes = [0] }) == .malformed("authenticator data has trailing bytes"))
        #expect(Self.failure(try await Self.register { $0.mismatchedID = true }) == .credentialIDMismatch)
    }

    @Test func R04_aCredentialIDOver1023BytesIsRefused() throws {
        var data = Array(repeating: UInt8(0), count: 32) + [0x45, 0, 0, 0, 0] + Array(repeating: 0, count: 16) + [0x04, 0x00]
        data += Array(repeating: 1, count: 1024) + CBORWriter.encode(.map([]))
        #expect(throws: PasskeyFailure.credentialIDTooLong) { try AuthenticatorData(data) }
        #expect(throws: PasskeyFailure.malformed("authenticator data")) { try AuthenticatorData(Array(data.prefix(36))) }
    }

    @Test func R05_onlyNoneAndVerifiedPackedSelfAttestationAreAccepted() async throws {
        #expect((try? await Self.register { $0.attestation = "packed" }.get()) != nil)
        #expect((try? await Self.register { $0.attestation = "packed"; $0.algorithm = COSEAlgorithm.rs256 }.get()) != nil)
        #expect(Self.failure(try await Self.register { $0.attestation = "packed"; $0.corruptSignature = true }) == .attestationInvalid)
        #expect(Self.failure(try await Self.register { $0.attestation = "fido-u2f" }) == .unsupportedAttestation)
        #expect(Self.failure(try await Self.register { $0.attestation = "tpm" }) == .unsupportedAttestation)
    }

    @Test func R06_keysMustBeAnOfferedAlgorithmWithTheMatchingTypeCurveAndSize() throws {
        let ed25519: CBORValue = .map([CBORMapEntry(.int(1), .int(1)), CBORMapEntry(.int(3), .int(-8)), CBORMapEntry(.int(-1), .int(6))])
        #expect(throws: PasskeyFailure.unsupportedAlgorithm) { try PasskeyPublicKey(cose: ed25519) }
        let p256 = SoftwareAuthenticator.cose(.p256(.init()))
        var rsaTyped = p256.entries ?? []
        rsaTyped[0] = CBORMapEntry(.int(1), .int(3))
        #expect(throws: PasskeyFailure.keyMismatch) { try PasskeyPublicKey(cose: .map(rsaTyped)) }
        var p384 = p256.entries ?? []
        p384[2] = CBORMapEntry(.int(-1), .int(2))
        #expect(throws: PasskeyFailure.keyMismatch) { try PasskeyPublicKey(cose: .map(p384)) }
        var short = p256.entries ?? []
        short[3] = CBORMapEntry(.int(-2), .bytes(Array(repeating: 1, count: 31)))
        #expect(throws: PasskeyFailure.keyMismatch) { try PasskeyPublicKey(cose: .map(short)) }
        let smallRSA: CBORValue = .map([
            CBORMapEntry(.int(1), .int(3)), CBORMapEntry(.int(3), .int(COSEAlgorithm.rs256)),
            CBORMapEntry(.int(-1), .bytes(Array(repeating: 0xC5, count: 128))), CBORMapEntry(.int(-2), .bytes([1, 0, 1])),
        ])
        #expect(throws: PasskeyFailure.keyMismatch) { try PasskeyPublicKey(cose: smallRSA) }
        #expect(throws: PasskeyFailure.malformed("credential public key")) { try PasskeyPublicKey(cose: .array([])) }
    }

    @Test func R07_aBadSignatureIsRefused() async throws {
        #expect(Self.failure(try await Self.assert { $0.corruptSignature = true }) == .signatureInvalid)
        #expect(Self.failure(try await Self.assert(algorithm: COSEAlgorithm.rs256) { $0.corruptSignature = true }) == .signatureInvalid)
    }

    @Test func R08_aCounterGoingBackIsRefusedUnlessThePasskeyIsSynced() async throws {
        let regressed = try await Self.assert(storedSignCount: 5) { $0.signCount = 5 }
        #expect(Self.failure(regressed) == .signCountRegressed)
        let grows = try await Self.assert(storedSignCount: 5) { $0.signCount = 6 }
        #expect(try grows.get().signCount == 6)
        let bothZero = try await Self.assert { $0.signCount = 0 }
        #expect(try bothZero.get() == PasskeyUse(signCount: 0, backedUp: false, cloneWarning: false), "0 and 0: no counter, no clone")
        let synced = try await Self.assert(storedSignCount: 5, storedSynced: true) {
            $0.signCount = 0
            $0.backupEligible = true
            $0.backedUp = true
        }
        #expect(try synced.get() == PasskeyUse(signCount: 0, backedUp: true, cloneWarning: true), "synced: a warning, not a refusal")
    }

    @Test func R09_malformedResponsesNameTheField() throws {
        let good = PasskeyAssertionJSON(
            id: "AQ", rawId: "AQ", response: .init(clientDataJSON: "e30", authenticatorData: "AA", signature: "AA", userHandle: nil)
        )
        var notBase64 = good
        notBase64.response.signature = "***"
        #expect(throws: PasskeyFailure.malformed("signature")) { try PasskeyAssertion(notBase64) }
        var wrongType = good
        wrongType.type = "password"
        #expect(throws: PasskeyFailure.malformed("type")) { try PasskeyAssertion(wrongType) }
        var mismatch = good
        mismatch.id = "Ag"
        #expect(throws: PasskeyFailure.credentialIDMismatch) { try PasskeyAssertion(mismatch) }
        #expect(throws: PasskeyFailure.malformed("clientDataJSON")) { try ClientData.parse(Array("[]".utf8)) }
        #expect(throws: PasskeyFailure.malformed("clientDataJSON")) { try ClientData.parse(Array(#"{"type":1,"challenge":"a","origin":"b"}"#.utf8)) }
    }
}
