import GraphQL
import Graphiti
import GatehouseModel

/// The GraphQL schema served at `/graphql`.
///
/// ```graphql
/// type Query { me: User! }
/// type Mutation {
///   login(data: LoginInput!): AuthPayload!
///   refresh(data: RefreshInput!): AuthPayload!
///   logout(scope: String = "local"): Boolean!
///   sendPhoneCode(data: SendPhoneCodeInput!): PhoneCodeSent!
///   resendPhoneCode(verificationId: String!): PhoneCodeSent!
///   addPhone(data: SendPhoneCodeInput!): PhoneCodeSent!
///   verifyAddPhone(data: VerifyPhoneCodeInput!): User!
///   verifyPhoneCode(data: VerifyPhoneCodeInput!): AuthPayload!
///   signInWithGoogle(data: GoogleSignInInput!): AuthPayload!
///   signInWithApple(data: AppleSignInInput!): AuthPayload!
///   signUp(data: SignUpInput!): Boolean!
///   resendVerificationEmail(email: String!): Boolean!
///   verifyEmail(data: MailProofInput!): AuthPayload!
///   requestPasswordReset(email: String!): Boolean!
///   resetPassword(data: MailProofInput!, password: String!): AuthPayload!
///   sendEmailCode(email: String!, createUser: Boolean = false): Boolean!
///   verifyEmailCode(data: MailProofInput!): AuthPayload!
///   deleteAccount(password: String): Boolean!
///   changeEmail(email: String!, password: String): EmailChange!
///   confirmEmailChange(data: MailProofInput!): EmailChange!
///   signInAnonymously: AuthPayload!
/// }
/// ```
///
/// Beside these: passkeys, the device list, and two-step verification (issue 37: `factors`,
/// `recoveryCodesLeft`, `enrolFactor`, `verifyFactor`, `challengeFactor`, `verifySecondFactor`,
/// `removeFactor`, `regenerateRecoveryCodes`; `AuthPayload.secondFactors` says a challenge is due).
package struct GatehouseGraphQL: API {
    package let resolver = GraphQLResolver()
    package let schema: Schema<GraphQLResolver, GraphQLContext>

    package init() throws {
        schema = try Schema<GraphQLResolver, GraphQLContext> {
            Type(SignedInUser.self, as: "User") {
                Field("id", at: \.id)
                Field("email", at: \.email)
                Field("firstName", at: \.firstName)
                Field("lastName", at: \.lastName)
                Field("name", at: \.name)
            }
            Type(GraphQLResolver.AuthPayload.self, as: "AuthPayload") {
                Field("token", at: \.token).description("The access token (a JWT) for `Authorization: Bearer`.")
                Field("refreshToken", at: \.refreshToken).description("Exchange for a new pair with `refresh`; single use.")
                Field("expiresIn", at: \.expiresIn).description("Seconds until `token` expires.")
                Field("user", at: \.user)
                Field("secondFactors", at: \.secondFactors).description("Not empty: answer a challenge (verifySecondFactor) to reach aal2.")
                Field("recoveryCodes", at: \.recoveryCodes).description("A first factor's recovery codes, shown this once.")
            }
            Type(GraphQLResolver.EmailChangePayload.self, as: "EmailChange") {
                Field("status", at: \.status).description("pending, awaiting_other or done.")
                Field("email", at: \.email).description("The new address.")
            }
            Input(GraphQLResolver.LoginInput.self, as: "LoginInput") {
                InputField("email", at: \.email)
                InputField("password", at: \.password)
            }
            Input(GraphQLResolver.RefreshInput.self, as: "RefreshInput") {
                InputField("refreshToken", at: \.refreshToken)
            }
            Type(PhoneCodeSent.self, as: "PhoneCodeSent") {
                Field("verificationId", at: \.verificationID).description("Names the code in verifyPhoneCode and resendPhoneCode.")
                Field("phoneMasked", at: \.phoneMasked)
                Field("expiresIn", at: \.expiresIn).description("Seconds until the code expires.")
                Field("resendAfter", at: \.resendAfter).description("Seconds until a resend is allowed.")
                Field("codeLength", at: \.codeLength)
            }
            Input(GraphQLResolver.SendPhoneCodeInput.self, as: "SendPhoneCodeInput") {
                InputField("phone", at: \.phone)
                InputField("country", at: \.country)
            }
            Input(GraphQLResolver.VerifyPhoneCodeInput.self, as: "VerifyPhoneCodeInput") {
                InputField("verificationId", at: \.verificationId)
                InputField("code", at: \.code)
            }
            Input(GraphQLResolver.GoogleSignInInput.self, as: "GoogleSignInInput") {
                InputField("code", at: \.code).description("An authorization code the app got from Google.")
                InputField("redirectUri", at: \.redirectUri)
                InputField("codeVerifier", at: \.codeVerifier)
                InputField("idToken", at: \.idToken).description("Or an ID token the app got from Google.")
                InputField("nonce", at: \.nonce).description("The raw nonce the app sent; the token carries its SHA-256.")
            }
            Input(GraphQLResolver.AppleSignInInput.self, as: "AppleSignInInput") {
                InputField("idToken", at: \.idToken).description("The identity token from Apple's sign-in sheet.")
                InputField("nonce", at: \.nonce).description("The raw nonce the app sent; the token carries its SHA-256.")
                InputField("name", at: \.name).description("The name Apple gives the app at the first authorisation only.")
            }
            Input(GraphQLResolver.SignUpInput.self, as: "SignUpInput") {
                InputField("email", at: \.email)
                InputField("password", at: \.password)
                InputField("name", at: \.name)
            }
            Input(GraphQLResolver.MailProofInput.self, as: "MailProofInput") {
                InputField("token", at: \.token).description("The token of the mail's link.")
                InputField("email", at: \.email).description("Or the address the mail went to, with its code.")
                InputField("code", at: \.code)
            }
            Type(PasskeySummary.self, as: "Passkey") {
                Field("id", at: \.id)
                Field("name", at: \.name)
                Field("createdAt", at: \.createdAt)
                Field("lastUsedAt", at: \.lastUsedAt)
                Field("synced", at: \.synced).description("Backed up to a passkey provider rather than bound to one device.")
            }
            Type(FactorSummary.self, as: "Factor") {
                Field("id", at: \.id)
                Field("type", at: \.type)
                Field("friendlyName", at: \.friendlyName)
                Field("status", at: \.status).description("verified, or unverified until its first code.")
            }
            Type(GraphQLResolver.FactorEnrolmentPayload.self, as: "FactorEnrolment") {
                Field("factor", at: \.factor)
                Field("secret", at: \.secret).description("Base32, for typing; shown this once.")
                Field("uri", at: \.uri)
                Field("qrCode", at: \.qrCode).description("The URI as an SVG image.")
            }
            Type(GraphQLResolver.FactorChallengePayload.self, as: "FactorChallenge") {
                Field("challengeId", at: \.challengeId)
                Field("expiresIn", at: \.expiresIn)
            }
            Type(DeviceSummary.self, as: "DeviceSession") {
                Field("id", at: \.id).description("What endSession ends.")
                Field("device", at: \.device).description("The device as read from its user agent at sign-in.")
                Field("ipAddress", at: \.ipAddress).description("The client address at sign-in.")
                Field("createdAt", at: \.createdAt)
                Field("lastSeenAt", at: \.lastSeenAt).description("Signed in or refreshed, at most once a minute.")
                Field("current", at: \.current).description("Whether this is the session that asked.")
            }
            Query {
                Field("me", at: GraphQLResolver.me).description("The signed-in user; needs a Bearer token.")
                Field("sessions", at: GraphQLResolver.sessions).description("The signed-in user's live sessions, one per device.")
                Field("passkeys", at: GraphQLResolver.passkeys).description("The signed-in account's passkeys, oldest first.")
                Field("factors", at: GraphQLResolver.factors).description("The signed-in account's second factors.")
                Field("recoveryCodesLeft", at: GraphQLResolver.recoveryCodesLeft)
            }
            Mutation {
                Field("login", at: GraphQLResolver.login) {
                    Argument("data", at: \.data)
                }
                Field("refresh", at: GraphQLResolver.refresh) {
                    Argument("data", at: \.data)
                }
                Field("logout", at: GraphQLResolver.logout) {
                    Argument("scope", at: \.scope).defaultValue("local")
                }.description("Ends this session (local), every session (global) or every other one (others).")
                Field("sendPhoneCode", at: GraphQLResolver.sendPhoneCode) {
                    Argument("data", at: \.data)
                }.description("Sends a one-time code by SMS to an account's phone (seed 004).")
                Field("resendPhoneCode", at: GraphQLResolver.resendPhoneCode) {
                    Argument("verificationId", at: \.verificationId)
                }
                Field("verifyPhoneCode", at: GraphQLResolver.verifyPhoneCode) {
                    Argument("data", at: \.data)
                }.description("Signs in with the code; answers like login.")
                Field("addPhone", at: GraphQLResolver.addPhone) {
                    Argument("data", at: \.data)
                }.description("Sends a code that adds (or changes) the signed-in account's phone; how a guest keeps its account.")
                Field("verifyAddPhone", at: GraphQLResolver.verifyAddPhone) {
                    Argument("data", at: \.data)
                }.description("Adds the phone with its code; answers the account, and never signs in.")
                Field("signInWithGoogle", at: GraphQLResolver.signInWithGoogle) {
                    Argument("data", at: \.data)
                }.description("Signs in with Google (a code or an ID token); answers like login.")
                Field("signInWithApple", at: GraphQLResolver.signInWithApple) {
                    Argument("data", at: \.data)
                }.description("Signs in with Apple's identity token; answers like login.")
                Field("signUp", at: GraphQLResolver.signUp) {
                    Argument("data", at: \.data)
                }.description("Creates an account and mails its verification; true whether or not the address was taken.")
                Field("resendVerificationEmail", at: GraphQLResolver.resendVerificationEmail) {
                    Argument("email", at: \.email)
                }
                Field("verifyEmail", at: GraphQLResolver.verifyEmail) {
                    Argument("data", at: \.data)
                }.description("Verifies the address with the mail's token or code and signs in; answers like login.")
                Field("requestPasswordReset", at: GraphQLResolver.requestPasswordReset) {
                    Argument("email", at: \.email)
                }.description("Mails a reset link and code if the address has an account; true either way.")
                Field("resetPassword", at: GraphQLResolver.resetPassword) {
                    Argument("data", at: \.data)
                    Argument("password", at: \.password)
                }.description("Sets a new password with the mail's token or code, ends every session and signs in.")
                Field("signInAnonymously", at: GraphQLResolver.signInAnonymously)
                    .description("A guest account (where the app lists anonymous), kept later by adding a way in; answers like login.")
                Field("sendEmailCode", at: GraphQLResolver.sendEmailCode) {
                    Argument("email", at: \.email)
                    Argument("createUser", at: \.createUser).defaultValue(false)
                }.description("Mails a sign-in code and link (where the app lists emailCode); true for every address.")
                Field("verifyEmailCode", at: GraphQLResolver.verifyEmailCode) {
                    Argument("data", at: \.data)
                }.description("Signs in with a mailed sign-in code or link's token; answers like login.")
                Field("passkeyAuthenticationOptions", at: GraphQLResolver.passkeyAuthenticationOptions)
                    .description("A discoverable passkey challenge: PublicKeyCredentialRequestOptionsJSON as JSON text.")
                Field("signInWithPasskey", at: GraphQLResolver.signInWithPasskey) {
                    Argument("credential", at: \.credential).description("PublicKeyCredential.toJSON() as JSON text.")
                }.description("Signs in with a passkey; answers like login.")
                Field("passkeyRegistrationOptions", at: GraphQLResolver.passkeyRegistrationOptions)
                    .description("Starts adding a passkey (signed in within 10 minutes): PublicKeyCredentialCreationOptionsJSON as JSON text.")
                Field("registerPasskey", at: GraphQLResolver.registerPasskey) {
                    Argument("credential", at: \.credential).description("PublicKeyCredential.toJSON() as JSON text.")
                    Argument("name", at: \.name)
                }
                Field("renamePasskey", at: GraphQLResolver.renamePasskey) {
                    Argument("id", at: \.id)
                    Argument("name", at: \.name)
                }
                Field("removePasskey", at: GraphQLResolver.removePasskey) {
                    Argument("id", at: \.id)
                }.description("Removes a passkey unless it is the account's last way in.")
                Field("enrolFactor", at: GraphQLResolver.enrolFactor) {
                    Argument("friendlyName", at: \.friendlyName)
                }.description("Starts an authenticator-app enrolment; unverified until verifyFactor.")
                Field("verifyFactor", at: GraphQLResolver.verifyFactor) {
                    Argument("factorId", at: \.factorId)
                    Argument("code", at: \.code)
                }.description("The factor's first code; answers like login, at aal2, with the recovery codes.")
                Field("challengeFactor", at: GraphQLResolver.challengeFactor) {
                    Argument("factorId", at: \.factorId).description("Omit for a challenge a recovery code answers.")
                }
                Field("verifySecondFactor", at: GraphQLResolver.verifySecondFactor) {
                    Argument("challengeId", at: \.challengeId)
                    Argument("code", at: \.code)
                    Argument("recoveryCode", at: \.recoveryCode)
                }.description("Answers a challenge; answers like login, at aal2.")
                Field("removeFactor", at: GraphQLResolver.removeFactor) {
                    Argument("factorId", at: \.factorId)
                }
                Field("regenerateRecoveryCodes", at: GraphQLResolver.regenerateRecoveryCodes)
                    .description("A new set of recovery codes, shown once; the old set stops working.")
                Field("endSession", at: GraphQLResolver.endSession) {
                    Argument("id", at: \.id)
                }.description("Signs one of the user's devices out; its tokens stop working at once.")
                Field("deleteAccount", at: GraphQLResolver.deleteAccount) {
                    Argument("password", at: \.password)
                }.description("Deletes the signed-in account: its password, or (without one) a sign-in in the last 5 minutes, proves it.")
                Field("changeEmail", at: GraphQLResolver.changeEmail) {
                    Argument("email", at: \.email)
                    Argument("password", at: \.password)
                }.description("Mails a link and code to the new address and a link to the current one; the change happens when both confirm.")
                Field("confirmEmailChange", at: GraphQLResolver.confirmEmailChange) {
                    Argument("data", at: \.data)
                }.description("Confirms one address of a pending email change with its mail's code or link token.")
            }
        }
        let problems = validateSchema(schema: schema.schema)
        guard problems.isEmpty else { throw problems[0] }
    }
}
