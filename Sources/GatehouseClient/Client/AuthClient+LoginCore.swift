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
            let tokens = SessionTokens(
                accessToken: session.accessToken, refreshToken: session.refreshToken,
                expiresIn: Int(session.expiresAt.timeIntervalSince(configuration.now()).rounded())
            )
            return .loginResponse(.success(LoginSuccess(user: session.user, tokens: tokens)))
        } catch let error as AuthError {
            return .loginResponse(.failure(error.loginFailure))
        } catch {
            return .loginResponse(.failure(.networkUnavailable))
        }
    }
}
