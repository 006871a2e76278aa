import GatehouseCore
import Logging
import ServiceLifecycle

/// Removes, hourly, the accounts whose owners deleted them with a grace period that is now
/// over (`accounts.deletionGraceDays`, issue 39); every instance may run it, since each removal
/// is one conditional statement a sign-in that kept the account wins.
struct AccountPurge: Service {
    let deletion: AccountDeletion
    let logger: Logger
    var interval: Duration = .seconds(3600)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let removed = try await deletion.purgeDue()
                    if removed > 0 { logger.notice("Accounts deleted after their grace period", metadata: ["accounts.removed": "\(removed)"]) }
                } catch {
                    logger.error("Accounts due for deletion were not removed", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: interval)
            }
        }
    }
}
