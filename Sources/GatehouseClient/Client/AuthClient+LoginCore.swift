import LoginCore

extension AuthClient {
    /// Runs a LoginCore effect that needs the network and returns the event to feed back.
    ///
    /// `authenticate` signs in and answers with `loginResponse`; `storeSession` is already done
    /// by then, since ``signIn(email:password:)`` stores the session before returning. Other
    /// effects belong to the UI and return `nil`.
    public func perform(_ effect: LoginEffect) async -> LoginEvent? {
        if case .track(let event) = effect { track(event) }
        guard case .authenticate(let credentials) = effect else { return nil }
        do {
            let session = try await signIn(email: credentials.email, password: credentials.password)
            return .loginResponse(.success(loginSuccess(session)))
        } catch {
            return .loginResponse(.failure(Self.failure(error)))
        }
    }

    /// Every analytics event the screens report through ``perform(_:)``, as it happens (seed
    /// 004's `screen_view`, `login_otp_requested`, …): hand them to your analytics SDK.
    /// Nothing is reported when the app file turns analytics off.
    public var analytics: AsyncStream<AnalyticsEvent> { analyticsEvents.stream() }

    /// Reports an analytics event to every ``analytics`` stream (a `.track` effect).
    public func track(_ event: AnalyticsEvent) {
        analyticsEvents.emit(event)
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
