import Foundation
import GatehouseModel
import Logging

/// Guest accounts (issue 39; Supabase's `signInAnonymously`): an account with no identity, for
/// apps that let people in before they sign up.
///
/// A guest is kept by adding any way in (an email, a phone, a provider, a passkey): the account
/// id stays, so the app's data stays attached. Signing in to another account from a guest's
/// device never merges the two: the answer names the account it was. Guests are limited per
/// client address, and a guest unused for `accounts.anonymousRetentionDays` is removed by
/// ``removeUnusedGuests()``, which `GatehouseServer`'s `AccountPurge` service runs hourly: off the
/// request path, and whether or not new guests keep coming.
package struct GuestAccounts: Sendable {
    let context: ServiceContext
    let throttles: any ThrottleRepository
    /// Guest accounts one client address may make per hour.
    let perAddressPerHour: Int

    package init(context: ServiceContext, throttles: any ThrottleRepository, perAddressPerHour: Int) {
        self.context = context
        self.throttles = throttles
        self.perAddressPerHour = perAddressPerHour
    }

    var now: Date { context.now }

    /// Makes a guest account, after the address's limit.
    func makeGuest(from client: ClientInfo) async throws -> Verified {
        do {
            try await throttles.admit(.anonymousAddress(client.address), maximum: perAddressPerHour, per: 3600, at: now)
        } catch GatehouseError.rateLimited(let wait) {
            context.report(.requestThrottled(account: nil, limit: .anonymousAddress), client: client)
            throw GatehouseError.rateLimited(retryAfter: wait)
        }
        let user = try await NewAccount(name: PersonName(full: ""), identities: [], passwordHash: nil).create(in: context.users, at: now)
        context.logger.info("Guest account made", metadata: ["user.id": "\(user.id)", "client.address": "\(client.address)"])
        context.report(.signedUp(userID: user.id), client: client)
        return Verified(user: user, isNewUser: true)
    }

    /// Removes guest accounts made before the retention period and not used since; returns how many.
    @discardableResult
    package func removeUnusedGuests() async throws -> Int {
        let cutoff = now.addingTimeInterval(-TimeInterval(context.settings.accounts.anonymousRetentionDays) * 86400)
        let removed = try await context.users.removeGuests(unusedSince: cutoff)
        if removed > 0 { context.logger.info("Unused guest accounts removed", metadata: ["count": "\(removed)"]) }
        return removed
    }
}

extension GuestAccounts: GrantVerifier {
    package var kinds: [GrantKind] { [.anonymous] }

    package func check(_ grant: Grant) throws {
        guard context.settings.signInMethods.offers(.anonymous) else { throw GatehouseError.methodNotOffered(.anonymous) }
    }

    package func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified? {
        guard case .anonymous = grant else { return nil }
        return try await makeGuest(from: client)
    }
}
