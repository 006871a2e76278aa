import GatehouseCore
import Logging
import ServiceLifecycle

/// Removes, hourly, the accounts that are due to go: those whose owners deleted them with a
/// grace period that is now over (`accounts.deletionGraceDays`), and guests unused for
/// `accounts.anonymousRetentionDays` (issue 39).
///
/// Every instance may run it: each removal is one conditional statement, and a sign-in that
/// kept the account (or used the guest) wins. It runs once at start, then every ``interval``.
struct AccountPurge: Service {
    /// Deletions with a grace period, when the app has one.
    let deletion: AccountDeletion?
    /// Guest accounts, when the app offers them.
    let guests: GuestAccounts?
    let logger: Logger
    var interval: Duration = .seconds(3600)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await pass()
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One pass: each kind of removal on its own, so a failure of one leaves the other to run.
    func pass() async {
        if let deletion {
            do {
                let removed = try await deletion.purgeDue()
                if removed > 0 { logger.notice("Accounts deleted after their grace period", metadata: ["accounts.removed": "\(removed)"]) }
            } catch {
                logger.error("Accounts due for deletion were not removed", metadata: ["error": "\(error)"])
            }
        }
        if let guests {
            do {
                try await guests.removeUnusedGuests()
            } catch {
                logger.error("Unused guest accounts were not removed", metadata: ["error": "\(error)"])
            }
        }
    }
}
