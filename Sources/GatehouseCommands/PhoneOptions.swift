import ArgumentParser
import GatehouseCore
import GatehouseDelivery

/// `serve`'s options for phone sign-in: code lifetime and every sending limit (seed 004).
public struct PhoneOptions: ParsableArguments {
    public init() {}

    @Option(help: "Seconds a one-time code stays valid.")
    var codeLifetime: Int = PhonePolicy().codeLifetime

    @Option(help: "Seconds before a phone may get another code.")
    var resendAfter: Int = PhonePolicy().resendAfter

    @Option(help: "Codes per phone in each 15 minutes.")
    var phoneSendsPerWindow: Int = PhonePolicy().sendsPerPhone

    @Option(help: "Codes per phone per day.")
    var phoneSendsPerDay: Int = PhonePolicy().sendsPerPhonePerDay

    @Option(help: "Code requests and account checks per client address in each 15 minutes.")
    var phoneAddressLimit: Int = PhonePolicy().requestsPerAddress

    @Option(help: "SMS the whole service may send per hour.")
    var smsPerHour: Int = PhonePolicy().smsPerHour

    @Flag(help: "Answer every code request alike, sending nothing to unknown numbers (no account check).")
    var silentAccountCheck = false

    public func validate() throws {
        guard codeLifetime >= 30, codeLifetime <= 3600 else { throw ValidationError("--code-lifetime must be 30 to 3600 seconds") }
        guard resendAfter >= 0, phoneSendsPerWindow > 0, phoneSendsPerDay > 0, phoneAddressLimit > 0, smsPerHour > 0 else {
            throw ValidationError("phone limits must be positive numbers")
        }
    }

    /// Applies the options to the phone policy `serve` turns on when the app offers phone sign-in.
    func apply(to policy: inout PhonePolicy) {
        policy.codeLifetime = codeLifetime
        policy.resendAfter = resendAfter
        policy.sendsPerPhone = phoneSendsPerWindow
        policy.sendsPerPhonePerDay = phoneSendsPerDay
        policy.requestsPerAddress = phoneAddressLimit
        policy.smsPerHour = smsPerHour
        policy.silentAccountCheck = silentAccountCheck
    }
}
