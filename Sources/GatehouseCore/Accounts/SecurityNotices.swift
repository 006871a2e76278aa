import Foundation
import GatehouseModel
import Logging

/// Security notices by mail (issue 39): the account's owner hears of each change to how it is
/// signed in to, from the events the services already report.
///
/// A sink beside the audit log: it takes the event and returns; the account is looked up and
/// the notice composed on the delivery queue, after the answer. Each notice's one link is
/// "This wasn't me", to the reset flow; none carries a secret.
package struct SecurityNotices: EventSink {
    let users: any UserRepository
    let mail: AccountMailer
    /// Where earlier sign-ins are found, when the app mails "New sign-in to your account"
    /// (`notifications.newDevice`); `nil` otherwise.
    let history: NewDeviceCheck?

    package init(users: any UserRepository, mail: AccountMailer, history: NewDeviceCheck? = nil) {
        self.users = users
        self.mail = mail
        self.history = history
    }

    /// The notice an event calls for, and the account it concerns. An email change's notices
    /// carry a secret ("This wasn't me" puts the address back), so ``EmailChange`` sends them.
    static func notice(for event: SecurityEvent) -> (EmailMessage.Action, userID: String)? {
        switch event {
        case .passwordChanged(let userID, .change): (.passwordChangedNotice, userID)
        case .passwordChanged(let userID, .reset): (.passwordResetNotice, userID)
        case .factorVerified(let userID, _): (.factorAddedNotice, userID)
        case .factorRemoved(let userID, _, _): (.factorRemovedNotice, userID)
        case .passkeyAdded(let userID, _): (.passkeyAddedNotice, userID)
        // An operator set the password (the admin API): its owner hears of it as of a change.
        case .administered(_, .setPassword, let userID): (.passwordChangedNotice, userID)
        case .signInSucceeded, .signInRefused, .sessionEnded, .signedUp, .emailVerified, .passkeyRemoved, .passkeyCloneWarning,
             .signInThrottled, .messageSent, .identityLinked, .identityUnlinked, .providerNotice, .requestThrottled,
             .signUpOfExistingAccount, .passwordChangeRefused, .administered, .factorEnrolled, .recoveryCodeUsed,
             .recoveryCodesRegenerated, .stepUpRefused, .accountDeleted, .emailChangeRequested, .emailChanged, .emailChangeReverted,
             .accountDeletionScheduled, .accountDeletionCancelled:
            nil
        }
    }

    package func record(_ event: SecurityEvent, at date: Date, address: String?, device: String?) {
        if case .signInSucceeded(let userID, let sessionID, _) = event, let history {
            let job: DeliveryQueue.Job = { [users, mail] in
                guard let user = try? await users.user(id: userID), let email = user.email,
                      (try? await history.isNew(user, sessionID: sessionID, device: device, address: address, at: date)) == true
                else { return }
                let extra = ["device": device ?? DeviceLabel.unknown, "address": address ?? "", "time": date.formatted(.iso8601)]
                await mail.notify(mail.compose(.newDeviceNotice, to: email, secret: nil, extra: extra), for: address.map { ClientInfo(address: $0) }, now: date)
            }
            mail.afterAnswer(job)
            return
        }
        guard let (action, userID) = Self.notice(for: event) else { return }
        let job: DeliveryQueue.Job = { [users, mail] in
            guard let user = try? await users.user(id: userID), let email = user.email else { return }
            let client = address.map { ClientInfo(address: $0) }
            await mail.notify(mail.compose(action, to: email, secret: nil, extra: ["device": device ?? DeviceLabel.unknown]), for: client, now: date)
        }
        mail.afterAnswer(job)
    }
}
