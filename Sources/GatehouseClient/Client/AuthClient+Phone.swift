import Foundation
import LoginCore

/// A code on its way: the server's answer and the number it went to.
public struct PhoneVerification: Sendable, Equatable {
    public var sent: PhoneCodeSent
    /// E.164; Supabase verifies by phone.
    public var phone: String

    public init(sent: PhoneCodeSent, phone: String) {
        self.sent = sent
        self.phone = phone
    }
}

extension AuthClient {
    /// Sends a sign-in code by SMS (seed 004). Throws ``AuthError`` like every call; a transport
    /// without phone codes answers `unsupported`.
    public func sendPhoneCode(_ request: PhoneCodeRequest) async throws -> PhoneVerification {
        let sent = try await phoneTransport().sendPhoneCode(phone: request.phone, country: request.country)
        return PhoneVerification(sent: sent, phone: request.phone)
    }

    /// Sends a new code in place of `verification`'s.
    public func resendPhoneCode(_ verification: PhoneVerification) async throws -> PhoneVerification {
        let sent = try await phoneTransport().resendPhoneCode(verificationID: verification.sent.verificationID, phone: verification.phone)
        return PhoneVerification(sent: sent, phone: verification.phone)
    }

    /// Signs in with the code that was sent; the session is stored like a password sign-in's.
    @discardableResult
    public func signIn(code: String, for verification: PhoneVerification) async throws -> Session {
        let grant = AuthGrant.phoneCode(verificationID: verification.sent.verificationID, phone: verification.phone, code: code)
        return try await manager.adopt(try await transport.token(grant))
    }

    /// Runs a code-entry effect that needs the network and returns the event to feed back.
    public func perform(_ effect: CodeEntryEffect, for verification: PhoneVerification) async -> CodeEntryEvent? {
        switch effect {
        case .verify(_, let code):
            do {
                return .verifyResponse(.success(loginSuccess(try await signIn(code: code, for: verification))))
            } catch {
                return .verifyResponse(.failure(Self.failure(error)))
            }
        case .resend:
            do {
                return .resendResponse(.success(try await resendPhoneCode(verification).sent))
            } catch {
                return .resendResponse(.failure(Self.failure(error)))
            }
        case .track(let event):
            track(event)
            return nil
        default:
            return nil
        }
    }

    private func phoneTransport() throws -> any PhoneCodeTransport {
        try supporting((any PhoneCodeTransport).self, else: "send phone codes")
    }
}
