import Foundation
import GatehouseModel
import Logging

extension PhoneCodes {
    /// Sends a code that adds (or changes) the signed-in account's phone (issue 39): how a guest
    /// keeps its account with a phone, and how anyone changes their number.
    ///
    /// The person proves it is them again as for an email change (a guest's session suffices).
    /// The limits are a sign-in code's; a number another account has gets the same answer and
    /// the same SMS, whose code can only fail.
    package func sendAddPhoneCode(_ principal: Principal, phone text: String, country: String?, from client: ClientInfo) async throws -> PhoneCodeSent {
        let number = try issuer.number(text, country: country)
        try await context.proveRecently(principal, password: nil, from: client)
        if try await context.users.user(provider: .phone, subject: number.e164)?.id == principal.user.id {
            throw GatehouseError.invalidRequest("phone is already this account's number")
        }
        return try await issueAddPhoneCode(to: number, for: principal.user.id, from: client)
    }

    /// The limits, then an `add_phone` code to `number` for the account (a send or a resend).
    func issueAddPhoneCode(to number: PhoneNumber, for userID: String?, from client: ClientInfo) async throws -> PhoneCodeSent {
        try await issuer.admitSend(to: number.e164, from: client, now: now)
        let sent = try await issuer.issue(to: number, purpose: .addPhone, name: nil, userID: userID, deliver: true, address: client.address, now: now)
        context.logger.info("Phone code issued", metadata: [
            "purpose": "add_phone", "user.id": "\(userID ?? "-")", "sms.to": "\(PhoneLog.redacted(number.e164))",
        ])
        return sent
    }

    /// Adds the phone a right code proves to the account it was sent for, verified; a number
    /// another account took meanwhile answers as an expired code.
    /// - Parameter account: the signed-in account that must have asked, where the caller knows it.
    /// - Returns: the account, with its phone.
    package func verifyAddPhoneCode(
        _ verificationID: String, code: String, account: String? = nil, from client: ClientInfo
    ) async throws -> UserRecord {
        guard !verificationID.isEmpty, verificationID.utf8.count <= 128, !code.isEmpty, code.utf8.count <= 16 else {
            throw GatehouseError.invalidRequest("verification_id and code are required")
        }
        let record = try await issuer.check(id: verificationID, code: code, now: now)
        guard record.purpose == .addPhone, let userID = record.userID, account == nil || account == userID,
              let user = try await context.users.user(id: userID)
        else {
            throw GatehouseError.codeRejected(.expired)
        }
        do {
            try await context.users.replaceIdentity(IdentityRecord(userID: user.id, provider: .phone, subject: record.phone, verifiedAt: now, createdAt: now))
        } catch RepositoryError.duplicateIdentity {
            throw GatehouseError.codeRejected(.expired)
        }
        context.logger.info("Phone added", metadata: ["user.id": "\(user.id)", "sms.to": "\(PhoneLog.redacted(record.phone))"])
        context.report(.identityLinked(userID: user.id, provider: .phone), client: client)
        return try await context.users.user(id: user.id) ?? user
    }
}
