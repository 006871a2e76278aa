import ArgumentParser
import Foundation
import GatehouseCore
import GatehouseSQL
import Logging
import LoginCore

/// `gatehouse users reset-link --email`: an operator's password reset for an account. Prints
/// the link (and its code), and mails it only with `--send`.
///
/// The secret is the same a "Forgot password?" mail carries: single use, 30 minutes, and a
/// newer one replaces it. The link points at `--public-url`, where the server's reset page is.
public struct ResetLinkCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "reset-link", abstract: "Print a password-reset link for an account (and mail it with --send)."
    )

    public init() {}

    @OptionGroup var storage: DatabaseOptions
    @Option(help: "The account's email.") var email: String
    @Option(help: "The address people reach the server at, such as https://auth.example.com.") var publicUrl: String
    @Option(help: "The app file whose name and copy the mail uses.") var config: String?
    @Flag(help: "Also mail the link to the account, through --smtp-url, --email-webhook or --email-outbox.") var send = false
    @OptionGroup(title: "Account mail") var mail: EmailOptions

    public func validate() throws {
        guard let url = URL(string: publicUrl), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw ValidationError("--public-url must be an http(s) URL such as https://auth.example.com")
        }
        if send, try mail.delivery(appName: "Gatehouse", publicHost: "localhost", demo: false) == nil {
            throw ValidationError("--send needs a mail sender: --smtp-url, --email-webhook or --email-outbox")
        }
        if !send, mail.namesSender { throw ValidationError("mail options go with --send") }
    }

    public func run() async throws {
        let login = try config.map { try AppConfiguration.load(from: URL(fileURLWithPath: $0)).login } ?? .standard
        let logger = Logger(label: "gatehouse")
        let base = publicUrl.hasSuffix("/") ? String(publicUrl.dropLast()) : publicUrl
        let address = EmailAddress.normalized(email)
        let sender = try send ? mail.delivery(appName: login.appName, publicHost: URL(string: base)?.host ?? "localhost", demo: false)?
            .makeSender(logger: logger) : nil
        let message = try await Storage.with(try storage.location(), logger: logger) { storage in
            let repository = storage.repository
            try await repository.migrate()
            guard let user = try await repository.user(email: address) else { throw ValidationError("no account has the email \(address)") }
            let mailer = try await AccountMailer.open(
                repository, references: try await AccountKeys.open(repository), sender: nil, outbox: nil, policy: MailPolicy(),
                login: login, publicURL: base, logger: logger
            )
            let secret = try await mailer.issue(.passwordReset, userID: user.id, email: address, now: Date())
            return mailer.compose(.recovery, to: address, secret: secret)
        }
        print(message.link ?? "")
        if let code = message.code { print("Code: \(code) (valid for 30 minutes, once)") }
        if let sender {
            try await sender.send(.email(message))
            print("Mailed to \(address)")
        }
    }
}
