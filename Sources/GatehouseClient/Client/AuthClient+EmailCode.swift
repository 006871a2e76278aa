import Foundation
import LoginCore

extension AuthClient {
    /// Mails a sign-in code and link to `email` (issue 39; the app lists `emailCode`).
    ///
    /// The answer is the same whether or not the address has an account. With `createUser`
    /// (where the app allows sign-up), an address with no account gets the mail too, and its
    /// code creates the account.
    public func sendEmailCode(email: String, createUser: Bool = false) async throws {
        try await accountTransport().sendEmailCode(email: email, createUser: createUser)
    }

    /// Signs in with the mailed code (`.code(email:code:)`) or the link's token; the session is stored.
    @discardableResult
    public func signInWithEmailCode(_ proof: EmailProof) async throws -> Session {
        try await manager.adopt(try await transport.token(.emailCode(proof)))
    }

    /// Signs in as a new guest (issue 39; the app lists `anonymous`): an account with no way
    /// in yet, kept by adding one later (a passkey, a provider); the session is stored.
    @discardableResult
    public func signInAnonymously() async throws -> Session {
        try await manager.adopt(try await transport.token(.anonymous))
    }

    /// Runs an ``EmailCodeForm`` effect that needs the network and returns the event to feed back.
    public func perform(_ effect: EmailCodeEffect, createUser: Bool = false) async -> EmailCodeEvent? {
        switch effect {
        case .requestCode(let email):
            do {
                try await sendEmailCode(email: email, createUser: createUser)
                return .requestResponse(.success(email))
            } catch {
                return .requestResponse(.failure(Self.failure(error)))
            }
        case .verifyCode(let email, let code):
            do {
                let session = try await signInWithEmailCode(.code(email: email, code: code))
                return .verifyResponse(.success(loginSuccess(session)))
            } catch {
                return .verifyResponse(.failure(Self.failure(error)))
            }
        case .storeSession, .navigateHome, .focus, .announce:
            return nil
        }
    }
}
