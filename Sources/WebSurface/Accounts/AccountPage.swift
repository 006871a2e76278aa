import Foundation
import LoginCore

/// What the account template shows: a title, a notice, one form built from the shared page
/// components (fields with label, hint and error, a password's show/hide toggle, a primary
/// button with a spinner, a banner), an optional "Resend email" button with its wait, and links.
/// One template serves sign-up, "Check your email", verification, "Forgot password?" and the reset.
package struct AccountPage {
    package struct Field {
        package var name: String
        package var label: String
        package var type = "text"
        package var autocomplete = "off"
        package var inputmode: String?
        package var value = ""
        package var error: String?
        package var hint: String?
        /// LoginCore's checks for the field, checked again by the page as the person types.
        package var checks: [FieldCheck] = []
        /// A one-time code's length: the page submits the form once that many characters are typed.
        package var autosubmit: Int?
        package var maxlength: Int?
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
    /// The notice reports something done ("Email verified"), not something asked for.
    package var noticeIsSuccess = false
    package var formID = "account-form"
    package var action: String
    package var fields: [Field] = []
    package var hidden: [String: String] = [:]
    package var submit: String
    package var banner: String?
    package var showForm = true
    /// The address a "Resend email" button resends to.
    package var resend: String?
    /// Where that button posts: the verification mail's resend, or the sign-in code's request.
    package var resendAction = "/verify-email/resend"
    /// Seconds until that button may be pressed: it shows "Resend email in 0:55" meanwhile.
    package var resendWait: Int?
    package var links: [Link] = []
    /// Focus the first field when none has an error (a one-time code's page).
    package var focusFirst = false
    /// The button does something that cannot be undone (deleting the account): it is red.
    package var destructive = false

    package func context(csrf: String, configuration: LoginConfiguration) -> [String: Any] {
        let messages = configuration.messages
        let firstError = fields.firstIndex { $0.error != nil } ?? (focusFirst ? 0 : nil)
        var values: [String: Any] = [
            "title": title, "action": action, "formID": formID, "submit": submit, "showForm": showForm, "csrf": csrf,
            "submitPolicy": configuration.submitPolicy.rawValue, "resendLabel": messages.text(.resendEmail), "destructive": destructive,
            "fields": fields.enumerated().map { index, field -> [String: Any] in
                var value: [String: Any] = [
                    "name": field.name, "label": field.label, "type": field.type, "autocomplete": field.autocomplete, "value": field.value,
                    "checks": Self.json(field.checks), "autofocus": index == firstError,
                ]
                if let mode = field.inputmode { value["inputmode"] = mode }
                if let whole = field.autosubmit { value["autosubmit"] = whole }
                if let maximum = field.maxlength { value["maxlength"] = maximum }
                if let error = field.error { value["error"] = error }
                if let hint = field.hint { value["hint"] = hint }
                if field.type == "password" {
                    value["toggle"] = true
                    value["showLabel"] = messages.text(.showPassword)
                    value["hideLabel"] = messages.text(.hidePassword)
                }
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
        if let notice {
            values["notice"] = notice
            values["success"] = noticeIsSuccess
        }
        if let banner { values["banner"] = banner }
        if let resend {
            values["resend"] = resend
            values["resendAction"] = resendAction
            values["resendText"] = messages.text(.resendEmail)
            if let resendWait, resendWait > 0 {
                values["resendWait"] = resendWait
                values["resendCountdown"] = messages.text(.resendEmailCountdown)
                values["resendText"] = messages.text(.resendEmailCountdown, ["time": MessageCatalogue.clock(resendWait)])
            }
        }
        return values
    }

    /// The checks as the page's script reads them (`data-checks`).
    static func json(_ checks: [FieldCheck]) -> String {
        let objects: [[String: Any]] = checks.map { check in
            switch check {
            case .required(let message, let trimmed): ["kind": "required", "message": message, "trimmed": trimmed]
            case .pattern(let pattern, let message): ["kind": "pattern", "pattern": pattern, "message": message]
            case .minimumLength(let minimum, let message): ["kind": "minimumLength", "minimum": minimum, "message": message]
            case .maximumBytes(let maximum, let message): ["kind": "maximumBytes", "maximum": maximum, "message": message]
            }
        }
        let data = (try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
