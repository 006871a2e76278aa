import Foundation
import GatehouseCore
import JWTKit

extension IDTokenVerifier {
    /// Checks Apple's server-to-server notice: a JWS signed by one of Apple's keys (the ID
    /// tokens' key set), `iss` Apple, `aud` one of our client ids, `iat` not in the future; its
    /// `events` claim (a JSON string) names the kind and the identity's `sub`.
    package func appleNotice(_ signed: String, now: Date) async throws -> ProviderNotice {
        let keys = try await signingKeys(of: signed, now: now)
        let claims: AppleNoticeClaims
        do {
            claims = try await keys.verify(signed, as: AppleNoticeClaims.self)
        } catch {
            throw ProviderFailure.invalidToken("signature does not verify")
        }
        guard settings.acceptedIssuers.contains(claims.iss.value) else { throw ProviderFailure.invalidToken("iss is not the provider") }
        guard claims.aud.value.contains(where: settings.clientIDs.contains) else {
            throw ProviderFailure.invalidToken("aud is not one of our clients")
        }
        guard claims.iat.value <= now.addingTimeInterval(settings.leeway) else { throw ProviderFailure.invalidToken("notice issued in the future") }
        guard let data = claims.events.data(using: .utf8), let event = try? JSONDecoder().decode(AppleNoticeEvent.self, from: data),
              let kind = ProviderNoticeKind(rawValue: event.type), !event.sub.isEmpty, event.sub.utf8.count <= 255
        else { throw ProviderFailure.invalidToken("events is not a notice") }
        return ProviderNotice(kind: kind, subject: event.sub)
    }
}

/// The claims of Apple's notice.
struct AppleNoticeClaims: JWTPayload {
    let iss: IssuerClaim
    let aud: AudienceClaim
    let iat: IssuedAtClaim
    /// JSON: `{"type", "sub", "event_time", "email"?, "is_private_email"?}`.
    let events: String

    func verify(using _: some JWTAlgorithm) throws {}
}

/// The event inside a notice.
struct AppleNoticeEvent: Decodable {
    let type: String
    let sub: String
}
