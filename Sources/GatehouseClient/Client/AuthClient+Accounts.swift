import Foundation
import LoginCore

extension AuthClient {
    /// Creates an account and mails its verification (issue 22); returns the normalised address.
    /// The answer is the same whether or not the address had an account.
    public func signUp(email: String, password: String, name: String) async throws -> String {
        try await accountTransport().signUp(email: email, password: password, name: name)
    }

    /// Mails a new verification link if the account needs one.
    public func resendVerification(email: String) async throws {
        try await accountTransport().resendVerification(email: email)
    }

    /// Mails a reset link and code if the address has an account.
    public func requestPasswordReset(email: String) async throws {
        try await accountTransport().requestPasswordReset(email: email)
    }

    /// Verifies the address with the mail's token or code and signs in; the session is stored.
    @discardableResult
    public func verifyEmail(_ proof: EmailProof) async throws -> Session {
        try await manager.adopt(try await transport.token(.emailLink(proof)))
    }

    /// Sets a new password with the mail's token or code and signs in; every other session ends.
    @discardableResult
    public func resetPassword(_ proof: EmailProof, newPassword: String) async throws -> Session {
        try await manager.adopt(try await transport.token(.passwordReset(proof, newPassword: newPassword)))
    }

    /// Runs a sign-up effect that needs the network and returns the event to feed back.
    public func perform(_ effect: SignUpEffect) async -> SignUpEvent? {
        if case .track(let event) = effect { track(event) }
        guard case .signUp(let name, let email, let password) = effect else { return nil }
        do {
            return .signUpResponse(.success(try await signUp(email: email, password: password, name: name)))
        } catch {
            return .signUpResponse(.failure(Self.failure(error)))
        }
    }

    /// Runs a reset effect that needs the network (with the mail's proof the app holds for the
    /// reset) and returns the event to feed back.
    public func perform(_ effect: PasswordResetForm.Effect, proof: EmailProof?) async -> PasswordResetForm.Event? {
        switch effect {
        case .requestReset(let email):
            do {
                try await requestPasswordReset(email: email)
                return .requestResponse(.success(email))
            } catch {
                return .requestResponse(.failure(Self.failure(error)))
            }
        case .resetPassword(let password):
            guard let proof else { return .resetResponse(.failure(.linkExpired)) }
            do {
                try await resetPassword(proof, newPassword: password)
                return .resetResponse(.success(()))
            } catch {
                return .resetResponse(.failure(Self.failure(error)))
            }
        case .navigateHome, .announce:
            return nil
        }
    }

    func accountTransport() throws -> any AccountTransport {
        try supporting((any AccountTransport).self, else: "create accounts")
    }

    /// The transport as one that offers a feature, or the one `unsupported` error saying what
    /// this backend cannot do.
    func supporting<Feature>(_ feature: Feature.Type, else cannot: String) throws -> Feature {
        guard let supported = transport as? Feature else {
            throw AuthError.server(status: 0, code: "unsupported", message: "This backend cannot \(cannot)")
        }
        return supported
    }
}

extension AuthClient {
    /// Deletes the signed-in account (issue 39) and forgets its session here.
    ///
    /// The server wants the account's `password`, or (for an account without one) a sign-in in
    /// the last five minutes, and a recent second factor where the account has one. Supabase
    /// Auth has no such route: there ``AuthError`` says the backend cannot.
    /// - Returns: when the account goes, where the server keeps it for a grace period (signing
    ///   in before then keeps it); `nil` when it went at once or the backend does not say.
    @discardableResult
    public func deleteAccount(password: String? = nil) async throws -> Date? {
        let deletion = try supporting((any AccountDeletionTransport).self, else: "delete accounts")
        let session = try await self.session()
        let due = try await deletion.deleteAccount(accessToken: session.accessToken, password: password)
        try await manager.end(.deleted)
        return due
    }
}
