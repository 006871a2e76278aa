import Crypto
import Foundation
import GatehouseModel
import Logging

/// Sends and checks one-time codes: the limits, the code, its HMAC, the SMS.
///
/// Codes are 6 digits from the system CSPRNG, stored only as an HMAC-SHA256 under a server
/// secret (a plain hash of a million possibilities falls to an offline search). Every limit is
/// a counter in the database, checked before anything is sent or looked up.
package struct PhoneCodeIssuer: Sendable {
    package let codes: any PhoneCodeRepository
    /// Reads the numbers people type (libphonenumber, through its adapter).
    package let numbers: any PhoneNumberReader
    package let throttles: any ThrottleRepository
    /// The code arithmetic (MAC, compare, tries left), shared with mail codes.
    package let code: OneTimeCode
    /// Keyed references for counter keys, the same the sign-in limits use.
    package let references: AccountKeys
    /// The send step (budget, sender, count, report), shared with mail, which the outbox runs.
    package var dispatch: MessageDispatch {
        didSet { outbox?.register(dispatch) }
    }
    /// Where codes wait to be sent, stored with the code in one transaction.
    package let outbox: MessageOutbox?
    package let policy: PhonePolicy
    package let logger: Logger

    /// The name of the HMAC key in ``SecretRepository``.
    package static let secretName = "phone-code-hmac-v1"

    package init(
        codes: any PhoneCodeRepository, throttles: any ThrottleRepository, numbers: any PhoneNumberReader, key: SymmetricKey,
        references: AccountKeys, sender: (any MessageSender)?, outbox: MessageOutbox?, policy: PhonePolicy, logger: Logger
    ) {
        self.codes = codes
        self.throttles = throttles
        self.numbers = numbers
        code = OneTimeCode(key: key, maximumAttempts: policy.maximumAttempts)
        self.references = references
        dispatch = MessageDispatch(
            channel: .sms, throttles: throttles, budget: .smsBudget, perHour: policy.smsPerHour, overBudgetResult: .failed, sender: sender, references: references,
            logger: logger
        )
        self.outbox = outbox
        outbox?.register(dispatch)
        self.policy = policy
        self.logger = logger
    }

    /// Phone codes over one repository, with the code key every instance shares.
    package static func open(
        _ repository: some PhoneCodeRepository & ThrottleRepository & SecretRepository, numbers: any PhoneNumberReader,
        references: AccountKeys, sender: (any MessageSender)?, outbox: MessageOutbox?, policy: PhonePolicy, logger: Logger
    ) async throws -> PhoneCodeIssuer {
        PhoneCodeIssuer(
            codes: repository, throttles: repository, numbers: numbers, key: try await repository.key(named: secretName),
            references: references, sender: sender, outbox: outbox, policy: policy, logger: logger
        )
    }

    /// The regions codes may go to, as the pickers show them, in `language`.
    package func countries(language: String = "en") -> [PhoneCountry] {
        policy.allowedRegions.compactMap { numbers.country($0, language: language) }
    }

    /// The number a client typed, if a code may be sent to it: valid, mobile, in an allowed region.
    package func number(_ text: String, country: String?) throws -> PhoneNumber {
        let region = (country ?? policy.allowedRegions.first ?? "").uppercased()
        guard let number = numbers.parse(text, region: region), number.canReceiveSMS,
              policy.allowedRegions.contains(number.region)
        else { throw GatehouseError.invalidPhone }
        return number
    }

    /// The per-address, resend and per-phone limits, in that order; each refusal says how long to wait.
    package func admitSend(to phone: String, from client: ClientInfo, now: Date) async throws {
        try await throttles.admit(.phoneAddress(client.address), maximum: policy.requestsPerAddress, per: TimeInterval(policy.addressWindow), at: now)
        if let current = try await codes.phoneCode(phone: phone), current.consumedAt == nil {
            let wait = current.createdAt.addingTimeInterval(TimeInterval(policy.resendAfter)).timeIntervalSince(now)
            if wait > 0 { throw GatehouseError.resendTooSoon(retryAfter: Int(wait.rounded(.up))) }
        }
        let reference = references.reference(for: "phone:\(phone)")
        try await throttles.admit(.phoneSends(phone: reference), maximum: policy.sendsPerPhone, per: TimeInterval(policy.phoneWindow), at: now)
        try await throttles.admit(.phoneDay(phone: reference), maximum: policy.sendsPerPhonePerDay, per: 24 * 3600, at: now)
    }

    /// Stores a new code for `phone` (replacing its old one) and, when `deliver`, its SMS in the
    /// same transaction, through the ``outbox``.
    ///
    /// With a silent account check the SMS is sent after the answer (the hourly budget, the
    /// gateway and the retries all run then), so a number with an account and one without get
    /// the same answer in the same time, and a failure is retried, never answered. Otherwise the
    /// request sends it once itself, and a failure withdraws the code and is 503
    /// `sms_unavailable`, so the person can ask again at once.
    package func issue(
        to phone: PhoneNumber, purpose: PhoneCodePurpose, name: String?, userID: String? = nil, deliver: Bool, address: String? = nil,
        now: Date
    ) async throws -> PhoneCodeSent {
        let queued = policy.silentAccountCheck
        if deliver, !queued, let wait = try await dispatch.spendBudget(now: now) { throw GatehouseError.smsUnavailable(retryAfter: wait) }
        let code = OneTimeCode.generate(length: policy.codeLength)
        let id = RefreshToken.generate(prefix: "ghv_")
        let record = PhoneCodeRecord(
            id: id, phone: phone.e164, purpose: purpose, name: name, codeMAC: self.code.mac(id: id, code: code), createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(policy.codeLifetime)), attempts: 0, userID: userID
        )
        guard deliver else {
            try await codes.putPhoneCode(record)
            return sent(record, phone)
        }
        guard let outbox else {
            logger.error("SMS not sent", metadata: ["sms.to": "\(PhoneLog.redacted(phone.e164))", "error": "no outbox"])
            throw GatehouseError.smsUnavailable(retryAfter: 30)
        }
        let message = try outbox.record(
            .sms(SMSMessage.code(code, to: phone.e164, policy: policy)), purpose: .code, address: address, expiresAt: record.expiresAt,
            budgetSpent: !queued, now: now
        )
        if queued {
            try await outbox.queue(message, with: record.secret)
            return sent(record, phone)
        }
        try await outbox.repository.putSecret(record.secret, queueing: message)
        switch await outbox.deliver(message, retrying: false) {
        case .sent:
            return sent(record, phone)
        case .overBudget(let wait):
            try? await codes.deletePhoneCode(id: id)
            logger.error("SMS not sent", metadata: ["sms.to": "\(PhoneLog.redacted(phone.e164))", "error": "over the hourly budget"])
            throw GatehouseError.smsUnavailable(retryAfter: wait)
        case .failed(let reason, _):
            try? await codes.deletePhoneCode(id: id)
            logger.error("SMS not sent", metadata: ["sms.to": "\(PhoneLog.redacted(phone.e164))", "error": "\(reason)"])
            throw GatehouseError.smsUnavailable(retryAfter: 30)
        }
    }

    private func sent(_ record: PhoneCodeRecord, _ phone: PhoneNumber) -> PhoneCodeSent {
        PhoneCodeSent(
            verificationID: record.id, phoneMasked: phone.masked, expiresIn: policy.codeLifetime, resendAfter: policy.resendAfter,
            codeLength: policy.codeLength
        )
    }

    /// The code's record if `code` is right; every try is counted before it is compared.
    package func check(id: String, code text: String, now: Date) async throws -> PhoneCodeRecord {
        guard let claimed = try await codes.claimAttempt(id: id, maximum: policy.maximumAttempts, now: now) else {
            let record = try await codes.phoneCode(id: id)
            throw code.unclaimable(consumed: record?.consumedAt != nil, expiresAt: record?.expiresAt, attempts: record?.attempts ?? 0, now: now)
        }
        if code.matches(text, id: id, mac: claimed.codeMAC), try await codes.consumePhoneCode(id: id, at: now) { return claimed }
        throw code.wrongCode(attempts: claimed.attempts)
    }
}
