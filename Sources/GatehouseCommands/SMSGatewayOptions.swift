import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseDelivery
import Logging

/// `serve`'s real SMS senders: a Standard Webhooks receiver or a Kannel gateway.
///
/// Secrets come from the environment, never from arguments (which other users can list):
/// `GATEHOUSE_SMS_WEBHOOK_SECRET` (`whsec_…`) and `GATEHOUSE_KANNEL_PASSWORD`.
public struct SMSGatewayOptions: ParsableArguments {
    public init() {}

    @Option(help: "POST each SMS to this URL, signed the Standard Webhooks way with GATEHOUSE_SMS_WEBHOOK_SECRET.")
    var smsWebhook: String?

    @Option(help: "Send each SMS through this Kannel sendsms URL (http://host:13013/cgi-bin/sendsms).")
    var smsKannel: String?

    @Option(help: "The Kannel sendsms-user; its password is GATEHOUSE_KANNEL_PASSWORD.")
    var smsKannelUser: String?

    @Option(help: "The sender number or name Kannel shows (default: the app's name).")
    var smsFrom: String?

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    public func validate() throws {
        if smsWebhook != nil, smsKannel != nil { throw ValidationError("choose one of --sms-webhook and --sms-kannel") }
        if smsWebhook != nil, (environment["GATEHOUSE_SMS_WEBHOOK_SECRET"] ?? "").isEmpty {
            throw ValidationError("--sms-webhook needs GATEHOUSE_SMS_WEBHOOK_SECRET (whsec_…)")
        }
        if smsKannel != nil, smsKannelUser == nil || (environment["GATEHOUSE_KANNEL_PASSWORD"] ?? "").isEmpty {
            throw ValidationError("--sms-kannel needs --sms-kannel-user and GATEHOUSE_KANNEL_PASSWORD")
        }
        if let delivery = delivery {
            do { _ = try delivery.makeSender(logger: Logger(label: "check")) } catch let error as DeliveryError { throw ValidationError(error.reason) }
        }
    }

    /// The sender these options choose, if any; Kannel's sender name defaults to `appName`.
    func delivery(appName: String) -> SMSDelivery? {
        if case .kannel(let url, let user, let password, nil) = delivery { return .kannel(url: url, username: user, password: password, from: appName) }
        return delivery
    }

    var delivery: SMSDelivery? {
        if let smsWebhook { return .webhook(url: smsWebhook, secret: environment["GATEHOUSE_SMS_WEBHOOK_SECRET"] ?? "") }
        if let smsKannel {
            return .kannel(url: smsKannel, username: smsKannelUser ?? "", password: environment["GATEHOUSE_KANNEL_PASSWORD"] ?? "", from: smsFrom)
        }
        return nil
    }
}
