import Foundation
import GatehouseCore
import GatehouseModel
import LoginCore
import Testing

/// The phone-code service and its grant, through the one pipeline on real SQLite.
@Suite struct PhoneCodesServiceTests {
    static let number = "+919876543210"

    static func phone(_ configure: @escaping (inout PhonePolicy) -> Void = { _ in }) -> (inout CoreHarness.Options) -> Void {
        { options in
            var policy = PhonePolicy()
            configure(&policy)
            options.phone = policy
            options.settings.signInMethods = SignInMethods(methods: [.phone])
        }
    }

    @Test func aRegistrationCodeCreatesTheAccountAndTheNextSignInFindsIt() async throws {
        try await CoreHarness.with(Self.phone()) { core in
            let phone = try #require(core.phone)
            let sent = try await phone.sendPhoneCode(Self.number, country: "IN", purpose: .register, name: "Ravi Kumar", from: CoreHarness.client)
            #expect(sent.phoneMasked.hasSuffix("3210") && !sent.phoneMasked.contains("98765"))
            let code = try #require(core.outbox.smsCodes.last)
            let signIn = try await core.pipeline.signIn(.phoneCode(verificationID: sent.verificationID, code: code), from: CoreHarness.client)
            #expect(signIn.grant.user.name == "Ravi Kumar")
            core.clock.advance(61)
            let again = try await phone.sendPhoneCode(Self.number, country: "IN", purpose: .signIn, from: CoreHarness.client)
            let next = try await core.pipeline.signIn(.phoneCode(verificationID: again.verificationID, code: try #require(core.outbox.smsCodes.last)), from: CoreHarness.client)
            #expect(next.grant.user.id == signIn.grant.user.id)
        }
    }

    @Test func anUnknownNumberIsToldSoOnlyAfterTheLimitsAndGetsNoSMS() async throws {
        try await CoreHarness.with(Self.phone()) { core in
            let phone = try #require(core.phone)
            await #expect(throws: GatehouseError.accountNotFound) {
                try await phone.sendPhoneCode(Self.number, country: "IN", purpose: .signIn, from: CoreHarness.client)
            }
            #expect(core.outbox.smsCodes.isEmpty)
            let counters = try await core.repository.counters([LimitKey.phoneAddress(CoreHarness.client.address).storageKey])
            #expect(counters.values.first?.count == 1)
        }
    }

    @Test func aWrongCodeCountsItsTriesAndTheResendWindowHolds() async throws {
        try await CoreHarness.with(Self.phone()) { core in
            let phone = try #require(core.phone)
            let sent = try await phone.sendPhoneCode(Self.number, country: "IN", purpose: .register, name: "Ravi", from: CoreHarness.client)
            let code = try #require(core.outbox.smsCodes.last)
            let wrong = code == "000000" ? "111111" : "000000"
            await #expect(throws: GatehouseError.codeRejected(.incorrect(attemptsLeft: 4))) {
                try await core.pipeline.signIn(.phoneCode(verificationID: sent.verificationID, code: wrong), from: CoreHarness.client)
            }
            await #expect(throws: GatehouseError.resendTooSoon(retryAfter: 60)) {
                try await phone.resendPhoneCode(verificationID: sent.verificationID, from: CoreHarness.client)
            }
            let status = try #require(try await phone.phoneCodeStatus(verificationID: sent.verificationID))
            #expect(status.attemptsUsed == 1 && status.failure == nil)
        }
    }

    @Test func aFailedSMSDeletesTheCodeAnswers503AndIsAudited() async throws {
        try await CoreHarness.with(Self.phone()) { core in
            let phone = try #require(core.phone)
            core.outbox.failing.withLockedValue { $0 = true }
            await #expect(throws: GatehouseError.smsUnavailable(retryAfter: 30)) {
                try await phone.sendPhoneCode(Self.number, country: "IN", purpose: .register, name: "Ravi", from: CoreHarness.client)
            }
            guard case .messageSent(_, .sms, .code, .failed) = core.events.all.last else { Issue.record("\(core.events.all)"); return }
            // The failed code was deleted, so no resend window holds a new one back.
            core.outbox.failing.withLockedValue { $0 = false }
            _ = try await phone.sendPhoneCode(Self.number, country: "IN", purpose: .register, name: "Ravi", from: CoreHarness.client)
        }
    }

    @Test func theHourlySMSBudgetRefusesTheSendOverIt() async throws {
        try await CoreHarness.with(Self.phone { $0.smsPerHour = 1 }) { core in
            let phone = try #require(core.phone)
            _ = try await phone.sendPhoneCode(Self.number, country: "IN", purpose: .register, name: "Ravi", from: CoreHarness.client)
            await #expect(throws: GatehouseError.smsUnavailable(retryAfter: 3600)) {
                try await phone.sendPhoneCode("+919876500000", country: "IN", purpose: .register, name: "Asha", from: CoreHarness.client)
            }
            #expect(core.outbox.smsCodes.count == 1)
        }
    }

    @Test func aNumberThatCannotReceiveSMSIsRefusedBeforeAnythingIsCounted() async throws {
        try await CoreHarness.with(Self.phone()) { core in
            let phone = try #require(core.phone)
            await #expect(throws: GatehouseError.invalidPhone) {
                try await phone.sendPhoneCode("12345", country: "IN", purpose: .signIn, from: CoreHarness.client)
            }
            #expect(try await core.repository.counters([LimitKey.phoneAddress(CoreHarness.client.address).storageKey]).isEmpty)
        }
    }
}
