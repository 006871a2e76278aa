import Foundation

/// Provider flows as one-time secrets: a flow is known by the hash of its `state` and consumed
/// once; a finished app flow adds a second secret, its return code (by hash), which carries the
/// flow's fields and is exchanged once.
extension OIDCFlowRepository where Self: OneTimeSecretRepository {
    public func insertFlow(_ flow: OIDCFlowRecord) async throws {
        try await putSecret(flow.secret(purpose: .providerFlow, id: flow.id))
    }

    public func consumeFlow(id: String, now: Date) async throws -> OIDCFlowRecord? {
        try await consumeSecret(.providerFlow, id: id, at: now, unexpiredAt: now).flatMap(OIDCFlowRecord.init)
    }

    public func completeFlow(id: String, userID: String, isNewUser: Bool, codeHash: String, expiresAt: Date) async throws {
        guard var flow = try await secret(.providerFlow, id: id).flatMap(OIDCFlowRecord.init) else { return }
        flow.userID = userID
        flow.isNewUser = isNewUser
        flow.expiresAt = expiresAt
        var returned = flow.secret(purpose: .providerReturn, id: codeHash)
        returned.consumedAt = nil
        try await putSecret(returned)
        // The flow is kept as long as its code, then purged with it.
        try await setSecretExpiry(.providerFlow, id: id, to: expiresAt)
    }

    public func exchangeFlowCode(hash: String, now: Date) async throws -> OIDCFlowRecord? {
        try await consumeSecret(.providerReturn, id: hash, at: now, unexpiredAt: now).flatMap(OIDCFlowRecord.init)
    }

    /// Removes expired flows and their return codes (which never outlive their flow); returns how many flows.
    public func purgeFlows(before: Date) async throws -> Int {
        _ = try await purgeSecrets([.providerReturn], before: before)
        return try await purgeSecrets([.providerFlow], before: before)
    }
}

extension OIDCFlowRecord {
    /// The fields a flow keeps beside the store's own.
    private struct Fields: Codable {
        var id: String
        var provider: String
        var purpose: String
        var bindingHash: String
        var returnTo: String?
        var clientState: String?
        var codeChallenge: String?
        var userID: String?
        var isNewUser: Bool
    }

    /// The flow as the one store keeps it, under `purpose` and `id` (the flow, or its return code);
    /// either way its target is the flow, so a flow has one of each.
    package func secret(purpose: OneTimeSecretPurpose, id secretID: String) -> OneTimeSecret {
        let fields = Fields(
            id: id, provider: provider.rawValue, purpose: self.purpose.rawValue, bindingHash: bindingHash, returnTo: returnTo,
            clientState: clientState, codeChallenge: codeChallenge, userID: userID, isNewUser: isNewUser
        )
        return OneTimeSecret(
            purpose: purpose, id: secretID, target: id, data: (try? JSONEncoder().encode(fields)) ?? Data("{}".utf8),
            createdAt: createdAt, expiresAt: expiresAt, consumedAt: consumedAt
        )
    }

    /// The flow a stored secret holds (a flow or a return code); `nil` if unreadable.
    package init?(_ secret: OneTimeSecret) {
        guard secret.purpose == .providerFlow || secret.purpose == .providerReturn,
              let fields = try? JSONDecoder().decode(Fields.self, from: secret.data)
        else { return nil }
        self.init(
            id: fields.id, provider: IdentityProvider(rawValue: fields.provider), purpose: OIDCFlowPurpose(rawValue: fields.purpose) ?? .web,
            bindingHash: fields.bindingHash, returnTo: fields.returnTo, clientState: fields.clientState,
            codeChallenge: fields.codeChallenge, userID: fields.userID, isNewUser: fields.isNewUser, createdAt: secret.createdAt,
            expiresAt: secret.expiresAt, consumedAt: secret.consumedAt
        )
    }
}
