import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseDelivery
import Logging

/// `serve`'s mail senders (SMTP, a Standard Webhooks receiver, or the dev outbox) and the
/// breached-password check.
///
/// Secrets come from the environment, never from arguments: `GATEHOUSE_SMTP_PASSWORD` and
/// `GATEHOUSE_EMAIL_WEBHOOK_SECRET` (`whsec_…`).
public struct EmailOptions: ParsableArguments {
    public init() {}

    @Option(help: "Submit mail to this SMTP server: smtp://[user@]host:port (STARTTLS) or smtps://[user@]host:port (TLS); the password is GATEHOUSE_SMTP_PASSWORD.")
    var smtpUrl: String?

    @Option(help: "The sender of account mail, \"Name <address>\" (default: the app's name at no-reply@ the public host).")
    var emailFrom: String?

    @Option(help: "PEM certificates to trust for the SMTP server instead of the system's.")
    var smtpCaFile: String?

    @Option(help: "POST each mail to this URL, signed the Standard Webhooks way with GATEHOUSE_EMAIL_WEBHOOK_SECRET.")
    var emailWebhook: String?

    @Option(help: "Append each mail as a JSON line to this file (development; --demo's default is ./gatehouse-mail-outbox.jsonl).")
    var emailOutbox: String?

    @Option(help: "Refuse new passwords found by this k-anonymity range API, such as https://api.pwnedpasswords.com/range/ (fails open).")
    var breachedPasswordCheck: String?

    @Option(help: "Sign-ups allowed per client address per hour (default 10).")
    var signupLimit: Int = MailPolicy().signUpsPerAddressPerHour

    @Option(help: "Account mails (sign-up, resend, reset) asked for per client address per hour (default 20).")
    var mailLimit: Int = MailPolicy().mailsPerAddressPerHour

    @Option(help: "Account mails the whole service sends per hour; past it mail is dropped and logged (default 1000).")
    var mailBudget: Int = MailPolicy().mailsPerHour

    @Option(help: "Seconds before a second mail of one kind may go to one address (\"Resend email\" waits this long; default 60).")
    var emailResendAfter: Int = MailPolicy().recipientInterval

    static let demoOutbox = "gatehouse-mail-outbox.jsonl"

    /// The mail limits these options set.
    var policy: MailPolicy {
        var policy = MailPolicy()
        policy.signUpsPerAddressPerHour = signupLimit
        policy.mailsPerAddressPerHour = mailLimit
        policy.mailsPerHour = mailBudget
        policy.recipientInterval = emailResendAfter
        return policy
    }

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    public func validate() throws {
        guard signupLimit > 0, mailLimit > 0, mailBudget > 0 else { throw ValidationError("mail limits must be positive numbers") }
        guard (1...86_400).contains(emailResendAfter) else { throw ValidationError("--email-resend-after must be from 1 to 86400 seconds") }
        let chosen = [smtpUrl, emailWebhook, emailOutbox].compactMap { $0 }
        if chosen.count > 1 { throw ValidationError("choose one of --smtp-url, --email-webhook and --email-outbox") }
        if emailWebhook != nil, (environment["GATEHOUSE_EMAIL_WEBHOOK_SECRET"] ?? "").isEmpty {
            throw ValidationError("--email-webhook needs GATEHOUSE_EMAIL_WEBHOOK_SECRET (whsec_…)")
        }
        if let smtpCaFile, !FileManager.default.fileExists(atPath: smtpCaFile) { throw ValidationError("--smtp-ca-file \(smtpCaFile): no such file") }
        if smtpCaFile != nil, smtpUrl == nil { throw ValidationError("--smtp-ca-file needs --smtp-url") }
        if let emailFrom {
            do { _ = try MailAddress(parsing: emailFrom) } catch { throw ValidationError("--email-from: \(error)") }
        }
        if let breachedPasswordCheck {
            do { _ = try RangeBreachedPasswords(url: breachedPasswordCheck) } catch let error as DeliveryError { throw ValidationError(error.reason) }
        }
        do {
            _ = try delivery(appName: "Gatehouse", publicHost: "localhost", demo: false)?.makeSender(logger: Logger(label: "check"))
        } catch let error as DeliveryError {
            throw ValidationError(error.reason)
        }
    }

    /// Whether any sender is named.
    var namesSender: Bool { smtpUrl != nil || emailWebhook != nil || emailOutbox != nil }

    /// The sender these options choose; with `demo` and none named, the outbox.
    func delivery(appName: String, publicHost: String, demo: Bool) throws -> EmailDelivery? {
        if let smtpUrl {
            let from = try emailFrom.map(MailAddress.init(parsing:)) ?? MailAddress(parsing: "\(appName) <no-reply@\(Self.mailDomain(publicHost))>")
            return .smtp(try SMTPSettings(url: smtpUrl, password: environment["GATEHOUSE_SMTP_PASSWORD"], from: from, trustRootsPath: smtpCaFile))
        }
        if let emailWebhook { return .webhook(url: emailWebhook, secret: environment["GATEHOUSE_EMAIL_WEBHOOK_SECRET"] ?? "") }
        if let emailOutbox { return .outbox(path: emailOutbox) }
        return demo ? .outbox(path: Self.demoOutbox) : nil
    }

    /// A domain for the default sender: the public host, or `localhost.localdomain` for an address.
    private static func mailDomain(_ host: String) -> String {
        host.contains(".") && !host.allSatisfy({ $0.isNumber || $0 == "." }) ? host : "localhost.localdomain"
    }
}
