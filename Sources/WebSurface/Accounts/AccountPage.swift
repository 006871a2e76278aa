import LoginCore

/// What the account template shows: a title, a notice, one form with its fields and banner,
/// an optional "Resend email" button, and links. One template serves sign-up, verification,
/// "Forgot password?" and the reset.
package struct AccountPage {
    package struct Field {
        package var name: String
        package var label: String
        package var type = "text"
        package var autocomplete = "off"
        package var inputmode: String?
        package var value = ""
        package var error: String?
    }

    package struct Link {
        package var id: String
        package var prompt: String?
        package var text: String
        package var href: String
    }

    package var title: String
    package var subtitle: String?
    package var notice: String?
    package var formID = "account-form"
    package var action: String
    package var fields: [Field] = []
    package var hidden: [String: String] = [:]
    package var submit: String
    package var banner: String?
    package var showForm = true
    /// The address a "Resend email" button resends to.
    package var resend: String?
    package var links: [Link] = []

    package func context(csrf: String, messages: MessageCatalogue) -> [String: Any] {
        var values: [String: Any] = [
            "title": title, "action": action, "formID": formID, "submit": submit, "showForm": showForm, "csrf": csrf,
            "resendLabel": messages.text(.resendEmail),
            "fields": fields.map { field -> [String: Any] in
                var value: [String: Any] = [
                    "name": field.name, "label": field.label, "type": field.type, "autocomplete": field.autocomplete, "value": field.value,
                ]
                if let mode = field.inputmode { value["inputmode"] = mode }
                if let error = field.error { value["error"] = error }
                return value
            },
            "hidden": hidden.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] },
            "links": links.map { link -> [String: Any] in
                var value: [String: Any] = ["id": link.id, "text": link.text, "href": link.href]
                if let prompt = link.prompt { value["prompt"] = prompt }
                return value
            },
        ]
        if let subtitle, !subtitle.isEmpty { values["subtitle"] = subtitle }
        if let notice { values["notice"] = notice }
        if let banner { values["banner"] = banner }
        if let resend { values["resend"] = resend }
        return values
    }
}
