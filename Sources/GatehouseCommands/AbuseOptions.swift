import ArgumentParser
import GatehouseCore
import GatehouseHTTP
import GatehouseServer

/// `serve`'s options for sign-in limits, trusted proxies and the hashing queue.
public struct AbuseOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("trusted-proxy"), help: "A proxy (address or CIDR range) whose X-Forwarded-For is believed; repeatable.")
    var trustedProxies: [String] = []

    @Option(help: "Sign-in attempts allowed per client address in each window (default 30).")
    var addressLimit: Int = AbusePolicy().addressLimit

    @Option(help: "The per-address window in seconds (default 300).")
    var addressWindow: Int = Int(AbusePolicy().addressWindow)

    @Option(help: "Consecutive failures, per account and device or address, before back-off starts (default 5).")
    var backoffAfter: Int = AbusePolicy().backoffThreshold

    @Option(help: "Failures per account per hour from unknown devices before they are held off (default 100).")
    var accountFailuresPerHour: Int = AbusePolicy().accountFailuresPerHour

    @Option(help: "Guest accounts (signIn.methods lists anonymous) made per client address per hour (default 30).")
    var anonymousLimit: Int = AbusePolicy().guestsPerAddressPerHour

    @Option(help: "Password checks that may wait for a hashing thread before sign-ins get 503 (default 64).")
    var hashQueue: Int = HashingLimits().queueDepth

    @Flag(help: "Hash passwords in gatehouse-hasher helper processes, one per hashing thread (about as fast as the threads since hashes reuse their memory).")
    var hashingHelpers = false

    public func validate() throws {
        guard addressLimit > 0, addressWindow > 0, backoffAfter > 0, accountFailuresPerHour > 0, hashQueue > 0, anonymousLimit > 0 else {
            throw ValidationError("limits must be positive numbers")
        }
        _ = try proxies()
    }

    func proxies() throws -> TrustedProxies {
        do {
            return try TrustedProxies(trustedProxies)
        } catch let error as TrustedProxyError {
            throw ValidationError("--trusted-proxy \(error)")
        }
    }

    /// Applies the options to a server configuration.
    func apply(to configuration: inout GatehouseConfiguration) throws {
        configuration.trustedProxies = try proxies()
        configuration.abuse.addressLimit = addressLimit
        configuration.abuse.addressWindow = Double(addressWindow)
        configuration.abuse.backoffThreshold = backoffAfter
        configuration.abuse.accountFailuresPerHour = accountFailuresPerHour
        configuration.abuse.guestsPerAddressPerHour = anonymousLimit
        configuration.hashing.queueDepth = hashQueue
        configuration.hashing.helperProcesses = hashingHelpers
    }
}
