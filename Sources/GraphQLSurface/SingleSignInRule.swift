import GraphQL

/// A validation rule: a document may call `login`, `refresh`, a phone-code mutation or
/// `signInWithGoogle` at most once.
///
/// Without it, one request could alias `login` hundreds of times and make the server hash as
/// many passwords, slipping past any per-request limit.
package enum SingleSignInRule {
    package static let limitedFields: Set<String> = [
        "login", "refresh", "sendPhoneCode", "resendPhoneCode", "verifyPhoneCode", "signInWithGoogle", "signInWithApple",
        "signUp", "resendVerificationEmail", "verifyEmail", "requestPasswordReset", "resetPassword", "sendEmailCode", "verifyEmailCode", "signInAnonymously",
        "passkeyAuthenticationOptions", "signInWithPasskey", "passkeyRegistrationOptions", "registerPasskey",
        "enrolFactor", "verifyFactor", "challengeFactor", "verifySecondFactor", "regenerateRecoveryCodes", "deleteAccount",
        "changeEmail", "confirmEmailChange", "addPhone", "verifyAddPhone",
    ]

    @Sendable package static func validate(_ context: ValidationContext) -> Visitor {
        var count = 0
        return Visitor(enter: { node, _, _, _, _ in
            if node.kind == .field, let field = node as? Field, limitedFields.contains(field.name.value) {
                count += 1
                if count == 2 {
                    context.report(error: GraphQLError(
                        message: "A request may call login, refresh, signUp or a code mutation only once", nodes: [field]
                    ))
                }
            }
            return .continue
        })
    }
}
