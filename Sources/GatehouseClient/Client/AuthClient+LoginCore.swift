import LoginCore

extension AuthClient {
    /// Runs a LoginCore effect that needs the network and returns the event to feed back.
    ///
    /// `authenticate` signs in and answers with `loginResponse`; `storeSession` is already done
    /// by then, since ``signIn(email:password:)`` stores the session before returning. Other
    /// effects belong to the UI and return `nil`.
    public func perform(_ effect: LoginEffect) async -> LoginEvent? {
        guard case .authenticate(let credentials) = effect else { return nil }
        do {
            let session = try await signIn(email: credentials.email, password: credentials.password)
            return .loginResponse(.success(loginSuccess(session)))
        } catch {
            return .loginResponse(.failure(Self.failure(error)))
        }
    }

    /// LoginCore's outcome for an error of a sign-in call; anything not an ``AuthError`` is the network's.
    static func failure(_ error: any Error) -> AuthFailure {
        (error as? AuthError)?.loginFailure ?? .networkUnavailable
    }

    /// A stored session as LoginCore's success: the user and the tokens, with the seconds left.
    func loginSuccess(_ session: Session) -> LoginSuccess {
        let tokens = SessionTokens(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            expiresIn: Int(session.expiresAt.timeIntervalSince(configuration.now()).rounded())
        )
        return LoginSuccess(user: session.user, tokens: tokens)
    }
}
