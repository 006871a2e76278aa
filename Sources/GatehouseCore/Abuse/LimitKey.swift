import Foundation
import Metrics

/// Every counter the server keeps in the database, named by what it counts.
///
/// Counters are rows of ``ThrottleRepository`` keyed by ``storageKey``, the same strings as
/// before this type existed, so counters running during an upgrade carry on. Accounts and
/// phones appear only as keyed references (``AccountKeys``), never as themselves.
package enum LimitKey: Sendable, Hashable {
    /// Sign-in attempts from one client address.
    case signInAddress(String)
    /// An account's consecutive failures from one device (or, without a device token, one address).
    case failureStreak(account: String, device: String?, address: String)
    /// An account's failures in the hour from devices that never signed in to it.
    case accountFailures(account: String)
    /// Code requests and account checks from one client address.
    case phoneAddress(String)
    /// Codes sent to one phone in the short window.
    case phoneSends(phone: String)
    /// Codes sent to one phone in the day.
    case phoneDay(phone: String)
    /// SMS the whole service sent this hour.
    case smsBudget
    /// Provider sign-ins started from one client address.
    case providerStarts(String)
    /// An ID token already presented (its hash).
    case spentIDToken(String)
    /// Sign-ups from one client address.
    case signUpAddress(String)
    /// Mail asked for from one client address (sign-up, resend, reset).
    case mailAddress(String)
    /// Mail of one purpose to one recipient (a keyed reference): one a minute.
    case mailRecipient(purpose: String, recipient: String)
    /// Mail the whole service sent this hour.
    case mailBudget
    /// Passkey challenges asked for from one client address.
    case passkeyChallenges(String)
    /// Code tries on one recipient's mails (a keyed reference) in the day.
    case mailCodeGuesses(recipient: String)
    /// Mail to one recipient domain this hour: its share of the budget.
    case mailDomain(String)
    /// Guest accounts made from one client address (issue 39).
    case anonymousAddress(String)

    package var storageKey: String {
        switch self {
        case .signInAddress(let address): "addr:\(address)"
        case .failureStreak(let account, let device?, _): Self.failureStreaksPrefix(account: account) + "dev:\(device)"
        case .failureStreak(let account, nil, let address): Self.failureStreaksPrefix(account: account) + "ip:\(address)"
        case .accountFailures(let account): "acct:\(account)"
        case .phoneAddress(let address): "phone-address:\(address)"
        case .phoneSends(let phone): "phone-sends:\(phone)"
        case .phoneDay(let phone): "phone-day:\(phone)"
        case .smsBudget: "sms-global"
        case .providerStarts(let address): "oidcstart:\(address)"
        case .spentIDToken(let hash): "idtoken-used:\(hash)"
        case .signUpAddress(let address): "signup-address:\(address)"
        case .mailAddress(let address): "mail-address:\(address)"
        case .mailRecipient(let purpose, let recipient): "mail-to:\(purpose):\(recipient)"
        case .mailBudget: "mail-global"
        case .passkeyChallenges(let address): "passkey-challenges:\(address)"
        case .mailCodeGuesses(let recipient): "mail-code-day:\(recipient)"
        case .mailDomain(let domain): "mail-domain:\(domain)"
        case .anonymousAddress(let address): "anonymous-address:\(address)"
        }
    }
}

extension LimitKey {
    /// The limit's name without whom it counts: the `limit` label of `gatehouse_throttled_total`.
    package var kind: LimitKind {
        switch self {
        case .signInAddress: .addressLimit
        case .failureStreak: .backoff
        case .accountFailures: .accountLimit
        case .phoneAddress: .phoneAddress
        case .phoneSends: .phoneSends
        case .phoneDay: .phoneDay
        case .smsBudget: .smsBudget
        case .providerStarts: .providerStarts
        case .spentIDToken: .spentIDToken
        case .signUpAddress: .signUpAddress
        case .mailAddress: .mailAddress
        case .mailRecipient: .mailRecipient
        case .mailBudget: .mailBudget
        case .passkeyChallenges: .passkeyChallenges
        case .mailCodeGuesses: .mailCodeGuesses
        case .mailDomain: .mailDomain
        case .anonymousAddress: .anonymousAddress
        }
    }

    /// Every failure streak of an account, from any device or address: what a reset clears.
    package static func failureStreaksPrefix(account: String) -> String {
        "fail:\(account):"
    }
}

extension ThrottleRepository {
    /// Counts one event on `key`.
    package func hit(_ key: LimitKey, window: TimeInterval, at now: Date) async throws -> ThrottleCounter {
        try await hit(key.storageKey, window: window, at: now)
    }

    /// The one limit check: counts one event on `key` and, past `maximum` in the window,
    /// refuses with ``GatehouseError/rateLimited(retryAfter:)`` and the wait until it ends.
    package func admit(_ key: LimitKey, maximum: Int, per window: TimeInterval, at now: Date) async throws {
        try key.refuse(past: maximum, counter: try await hit(key, window: window, at: now), window: window, now: now)
    }
}

extension OneTimeSecretRepository {
    /// Stores `secret` if `key`'s limit admits one more event, counting it either way in the
    /// same transaction; past `maximum` it refuses as ``ThrottleRepository/admit(_:maximum:per:at:)``
    /// does, and nothing is stored.
    package func putSecret(_ secret: OneTimeSecret, admitting key: LimitKey, maximum: Int, per window: TimeInterval, at now: Date) async throws {
        let counter = try await putSecret(secret, countingUnder: key.storageKey, maximum: maximum, window: window, at: now)
        try key.refuse(past: maximum, counter: counter, window: window, now: now)
    }
}

extension LimitKey {
    /// Refuses with ``GatehouseError/rateLimited(retryAfter:)`` when `counter` is past `maximum`.
    func refuse(past maximum: Int, counter: ThrottleCounter, window: TimeInterval, now: Date) throws {
        guard counter.count > maximum else { return }
        Counter(label: "gatehouse_throttled_total", dimensions: [("limit", kind.rawValue)]).increment()
        throw GatehouseError.rateLimited(retryAfter: counter.wait(window: window, now: now))
    }
}

extension ThrottleCounter {
    /// Whole seconds (at least 1) until this counter's window ends.
    package func wait(window: TimeInterval, now: Date) -> Int {
        max(1, Int(windowStart.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
    }
}
