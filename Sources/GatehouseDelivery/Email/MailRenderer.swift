import Foundation
import GatehouseCore
import Mustache

/// Renders an ``EmailMessage`` into its text and HTML parts from the module's templates
/// (swift-mustache), with the app's name and copy the message carries.
///
/// The HTML template escapes every value; the text one inserts links as they are.
package struct MailRenderer: Sendable {
    package let library: MustacheLibrary

    /// The templates, read once from the module's resources.
    package static let shared: MailRenderer = {
        guard let folder = Bundle.module.url(forResource: "Resources", withExtension: nil),
              let text = try? String(contentsOf: folder.appendingPathComponent("mail.txt.mustache"), encoding: .utf8),
              let html = try? String(contentsOf: folder.appendingPathComponent("mail.html.mustache"), encoding: .utf8),
              let textTemplate = try? MustacheTemplate(string: text), let htmlTemplate = try? MustacheTemplate(string: html)
        else { preconditionFailure("the mail templates are missing from GatehouseDelivery's resources") }
        return MailRenderer(library: MustacheLibrary(templates: ["text": textTemplate, "html": htmlTemplate]))
    }()

    /// The text and HTML parts of a message.
    package func render(_ message: EmailMessage) -> (text: String, html: String) {
        var values: [String: Any] = [
            "appName": message.appName, "subject": message.subject, "body": message.body, "actionLabel": message.actionLabel,
            "footer": message.footer
        ]
        if let link = message.link { values["link"] = link }
        if let line = message.codeLine { values["codeLine"] = line }
        if let second = message.secondaryLink { values["secondaryLink"] = second }
        if let label = message.secondaryLabel { values["resetLabel"] = label }
        return (library.render(values, withTemplate: "text") ?? message.body, library.render(values, withTemplate: "html") ?? message.body)
    }
}
