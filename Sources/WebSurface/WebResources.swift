import Foundation
import Mustache

/// The web screens' files, read and parsed once per process from the module's resources: the
/// Mustache templates, the stylesheet, the scripts and the OpenAPI document.
///
/// Every server a process builds shares them (the test suites build hundreds, and parsing the
/// templates again for each took about a twentieth of their CPU time).
package struct WebResources: Sendable {
    package let templates: MustacheLibrary
    /// Served files by name: (content type, body).
    package let assets: [String: (type: String, body: String)]

    /// The process's one copy, read on first use; a failure to read is the same failure each time.
    package static func load() throws -> WebResources {
        try loaded.get()
    }

    private static let loaded = Result { try read() }

    private static func read() throws -> WebResources {
        guard let folder = Bundle.module.url(forResource: "Resources", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "GatehouseServer resources"])
        }
        func read(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        let templates = MustacheLibrary(templates: [
            "login": try MustacheTemplate(string: read("login.mustache")),
            "home": try MustacheTemplate(string: read("home.mustache")),
            "phone": try MustacheTemplate(string: read("phone.mustache")),
            "code": try MustacheTemplate(string: read("code.mustache")),
            "providers": try MustacheTemplate(string: read("providers.mustache")),
            "welcome": try MustacheTemplate(string: read("welcome.mustache")),
            "brandmark": try MustacheTemplate(string: read("brandmark.mustache")),
            "account": try MustacheTemplate(string: read("account.mustache")),
            "field": try MustacheTemplate(string: read("field.mustache")),
            "actions": try MustacheTemplate(string: read("actions.mustache")),
            "passkeys": try MustacheTemplate(string: read("passkeys.mustache")),
            "biometric": try MustacheTemplate(string: read("biometric.mustache")),
            "mfa-setup": try MustacheTemplate(string: read("mfa-setup.mustache")),
            "mfa-home": try MustacheTemplate(string: read("mfa-home.mustache")),
        ])
        let assets = [
            "gatehouse.css": ("text/css; charset=utf-8", try read("gatehouse.css")),
            "login.js": ("text/javascript; charset=utf-8", try read("login.js")),
            "forms.js": ("text/javascript; charset=utf-8", try read("forms.js")),
            "phone.js": ("text/javascript; charset=utf-8", try read("phone.js")),
            "provider.js": ("text/javascript; charset=utf-8", try read("provider.js")),
            "passkey.js": ("text/javascript; charset=utf-8", try read("passkey.js")),
            "analytics.js": ("text/javascript; charset=utf-8", try read("analytics.js")),
            "mfa.js": ("text/javascript; charset=utf-8", try read("mfa.js")),
            "openapi.yaml": ("application/yaml; charset=utf-8", try read("openapi.yaml")),
        ]
        return WebResources(templates: templates, assets: assets.mapValues { (type: $0.0, body: $0.1) })
    }
}
