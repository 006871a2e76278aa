import Foundation
import GatehouseModel
import Logging

/// Phone codes (seed 004): sending, resending and the state of a code, and the `.phoneCode`
/// grant's verifier, which signs in or registers whoever holds the phone.
package struct PhoneCodes: Sendable {
    let context: ServiceContext
    /// The codes, their limits and the SMS.
    let issuer: PhoneCodeIssuer

    package init(context: ServiceContext, issuer: PhoneCodeIssuer) {
        self.context = context
        self.issuer = issuer
    }

    var now: Date { context.now }

    /// What the code screens need to know of the app's phone policy.
    package var policy: PhonePolicy { issuer.policy }

    /// The regions codes may go to, as the pickers show them, in `language`.
    package func countries(language: String = "en") -> [PhoneCountry] {
        issuer.countries(language: language)
    }

    /// Sends a sign-in or registration code to a phone (seed 004's Send OTP).
    ///
    /// Order matters: the number's shape, then every limit, and only then the account check,
    /// which the limits count like a send, so probing for accounts costs as much as sending.
    /// With ``PhonePolicy/silentAccountCheck`` an unknown number gets the same answer and no SMS.
    /// `registerIfMissing` (GoTrue's `create_user`) turns a sign-in code for an unknown number
    /// into a registration code when registration is enabled.
    package func sendPhoneCode(
        _ text: String, country: String?, purpose: PhoneCodePurpose, name: String? = nil, registerIfMissing: Bool = false,
        from client: ClientInfo
    ) async throws -> PhoneCodeSent {
        // A registration's name passes the one name rule before anything is counted or sent.
        let name = try purpose == .register ? ServiceContext.checkedName(name ?? "") : nil
        let number = try issuer.number(text, country: country)
        return try await sendPhoneCode(to: number, purpose: purpose, name: name, registerIfMissing: registerIfMissing, from: client)
    }

    /// A stored number (E.164) as people write it: `+91 98765 43210`.
    package func displayed(_ e164: String) -> String {
        issuer.numbers.parse(e164, region: "")?.international ?? e164
    }

    /// The current code of a phone, for clients that verify by number (GoTrue's `/verify`).
    package func currentPhoneCode(_ text: String) async throws -> String {
        guard let number = try? issuer.number(text, country: nil), let record = try await issuer.codes.phoneCode(phone: number.e164) else {
            throw GatehouseError.codeRejected(.expired)
        }
        return record.id
    }

    /// Sends a new code for the phone of an earlier request; the old code stops working.
    package func resendPhoneCode(verificationID: String, from client: ClientInfo) async throws -> PhoneCodeSent {
        guard verificationID.utf8.count <= 64 else { throw GatehouseError.invalidRequest("verification_id must be at most 64 bytes") }
        guard let record = try await issuer.codes.phoneCode(id: verificationID), let number = issuer.numbers.parse(record.phone, region: "")
        else { throw GatehouseError.codeRejected(.expired) }
        if record.purpose == .addPhone { return try await issueAddPhoneCode(to: number, for: record.userID, from: client) }
        return try await sendPhoneCode(to: number, purpose: record.purpose, name: record.name, from: client)
    }

    private func sendPhoneCode(
        to number: PhoneNumber, purpose requested: PhoneCodePurpose, name: String?, registerIfMissing: Bool = false,
        from client: ClientInfo
    ) async throws -> PhoneCodeSent {
        try await issuer.admitSend(to: number.e164, from: client, now: now)
        let account = try await context.users.user(provider: .phone, subject: number.e164)
        var deliver = true
        var purpose = requested
        if purpose == .signIn, account == nil, registerIfMissing, issuer.policy.registration { purpose = .register }
        switch purpose {
        case .signIn where account == nil:
            guard issuer.policy.silentAccountCheck else { throw GatehouseError.accountNotFound }
            deliver = false
        case .register:
            guard issuer.policy.registration else { throw GatehouseError.invalidRequest("registration is not enabled") }
            // Silent: a taken number is answered exactly as a new one, and gets the same SMS; its
            // code signs the owner in to their own account (see `verifyPhoneCode`).
            if account != nil, !issuer.policy.silentAccountCheck { throw GatehouseError.phoneTaken }
        case .signIn:
            break
        case .addPhone:
            throw GatehouseError.invalidRequest("a phone is added by a signed-in account")
        }
        let sent = try await issuer.issue(
            to: number, purpose: purpose, name: name, deliver: deliver, address: client.address, now: now
        )
        context.logger.info("Phone code issued", metadata: [
            "purpose": "\(purpose.rawValue)", "sms.to": "\(PhoneLog.redacted(number.e164))", "delivered": "\(deliver)",
            "client.address": "\(client.address)",
        ])
        return sent
    }

    /// The phone grant's verifier: the account a right code proves, created first for a registration.
    package func verifyPhoneCode(_ verificationID: String, code: String) async throws -> UserRecord {
        let record = try await issuer.check(id: verificationID, code: code, now: now)
        switch record.purpose {
        case .signIn:
            // A silent check's code for an unknown number can only fail, like a wrong code.
            guard let user = try await context.users.user(provider: .phone, subject: record.phone) else {
                throw GatehouseError.codeRejected(.expired)
            }
            return user
        case .register:
            let user: UserRecord
            do {
                user = try await NewAccount.phone(record.phone, name: PersonName(full: record.name ?? "")).create(in: context.users, at: now)
            } catch RepositoryError.duplicateIdentity {
                // Silent mode sent a registration code to a taken number: whoever holds the phone
                // proved it, and signs in to the account it already has (the typed name is not used).
                guard issuer.policy.silentAccountCheck,
                      let owner = try await context.users.user(provider: .phone, subject: record.phone)
                else { throw GatehouseError.phoneTaken }
                return owner
            }
            context.logger.info("Account registered", metadata: ["user.id": "\(user.id)", "method": "phone"])
            return user
        case .addPhone:
            // An added phone's code proves the phone for its account; it never signs anyone in.
            throw GatehouseError.codeRejected(.expired)
        }
    }

    /// Where a code stands now, for a code screen rendered later (the web page): the masked
    /// number, seconds to expiry and to the next resend, and tries used. `nil` for an unknown or
    /// used code; an expired or burned one is returned so the screen can offer a resend.
    package func phoneCodeStatus(verificationID: String) async throws -> PhoneCodeStatus? {
        guard verificationID.utf8.count <= 64, let record = try await issuer.codes.phoneCode(id: verificationID),
              record.consumedAt == nil, let number = issuer.numbers.parse(record.phone, region: "")
        else { return nil }
        let policy = issuer.policy
        let resendAt = record.createdAt.addingTimeInterval(TimeInterval(policy.resendAfter))
        let sent = PhoneCodeSent(
            verificationID: record.id, phoneMasked: number.masked,
            expiresIn: max(0, Int(record.expiresAt.timeIntervalSince(now).rounded(.up))),
            resendAfter: max(0, Int(resendAt.timeIntervalSince(now).rounded(.up))), codeLength: policy.codeLength
        )
        let failure: CodeFailure? = record.attempts >= policy.maximumAttempts ? .exhausted : (sent.expiresIn == 0 ? .expired : nil)
        return PhoneCodeStatus(sent: sent, attemptsUsed: record.attempts, purpose: record.purpose, failure: failure)
    }
}

extension PhoneCodes: GrantVerifier {
    package var kinds: [GrantKind] { [.phoneCode] }

    package func check(_ grant: Grant) throws {
        guard case .phoneCode(let verificationID, let code) = grant else { return }
        guard !verificationID.isEmpty, verificationID.utf8.count <= 64 else {
            throw GatehouseError.invalidRequest("verification_id must be 1 to 64 bytes")
        }
        guard !code.isEmpty, code.utf8.count <= 16 else { throw GatehouseError.invalidRequest("code must be 1 to 16 bytes") }
    }

    package func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified? {
        guard case .phoneCode(let verificationID, let code) = grant else { return nil }
        return Verified(user: try await verifyPhoneCode(verificationID, code: code))
    }
}

/// A live code as a code screen shows it.
package struct PhoneCodeStatus: Sendable {
    /// The code's masked number, with its timings counted from now.
    package let sent: PhoneCodeSent
    /// Wrong tries so far.
    package let attemptsUsed: Int
    package let purpose: PhoneCodePurpose
    /// Why the code can no longer be used, if it cannot.
    package let failure: CodeFailure?
}
