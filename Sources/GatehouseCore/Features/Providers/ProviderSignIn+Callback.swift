import Foundation

extension ProviderSignIn {
    /// Where a provider's callback leads once its grant was admitted.
    package enum CallbackOutcome: Sendable {
        /// An app's flow: send the browser back to the app with a one-time code.
        case app(redirect: String)
        /// Home's "Link": the identity was added to the signed-in account.
        case linked
        /// A browser's sign-in: its new web session, and the local page to land on (the
        /// profile step for a new account, else where the flow began, else Home).
        case web(WebSignIn, next: String)
    }

    /// Finishes a provider's callback after the pipeline admitted its grant: the one place a
    /// flow's purpose decides what happens next. `nil` when the grant came through no flow.
    /// - Parameters:
    ///   - previous: the web session id the browser held, which a web sign-in ends.
    ///   - pipeline: opens the web session.
    package func complete(
        _ admitted: Admission, from client: ClientInfo, replacing previous: String?, through pipeline: SignInPipeline
    ) async throws -> CallbackOutcome? {
        guard let flow = admitted.flow else { return nil }
        switch flow.purpose {
        case .app:
            return .app(redirect: try await returnToApp(admitted))
        case .link:
            // An app's link returns to the app's address; Home's to Home.
            if let target = flow.returnTo, ReturnPath.validated(target, publicURL: context.settings.publicURL) == nil {
                return .app(redirect: target)
            }
            return .linked
        case .web:
            let method = admitted.method ?? .oidc
            let id = try await pipeline.openWebSession(
                for: admitted.user, method: method, assurance: .signedIn(with: method, at: context.now), client: client, replacing: previous
            )
            // Checked again on the way out: a flow stored before the rule tightened lands on Home.
            let stored = flow.returnTo.flatMap { ReturnPath.validated($0, publicURL: context.settings.publicURL) }
            let signIn = WebSignIn(sessionID: id, deviceToken: admitted.deviceToken, isNewUser: admitted.isNewUser)
            return .web(signIn, next: admitted.isNewUser ? "/welcome" : (stored ?? "/home"))
        }
    }
}
