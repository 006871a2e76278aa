/// The password grant's verifier: the pipeline's own, gated by the app's `signIn.methods`.
///
/// An unknown identifier is checked against the dummy hash, so it costs what a wrong password
/// costs and answers the same.
struct PasswordVerifier: GrantVerifier {
    let context: ServiceContext
    /// Pending sign-ups' passwords, where the app requires verified emails.
    var pending: (any PendingPasswords)?

    /// Identifiers longer than this many bytes are refused before any lookup.
    static let maximumIdentifierBytes = 320

    var kinds: [GrantKind] { [.password] }

    func check(_ grant: Grant) throws {
        guard case .password(_, let password) = grant else { throw GrantKind.password.notOffered }
        // The app's `signIn.methods` gate the password on every surface, before anything is counted.
        guard context.settings.signInMethods.offers(.email) else { throw GatehouseError.methodNotOffered(.email) }
        let identifier = grant.identifier
        guard !identifier.isEmpty else { throw GatehouseError.invalidRequest("email must not be empty") }
        guard identifier.utf8.count <= Self.maximumIdentifierBytes else {
            throw GatehouseError.invalidRequest("email must be at most \(Self.maximumIdentifierBytes) bytes")
        }
        try PasswordShape.check(password, required: true)
    }

    func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified? {
        guard case .password(_, let password) = grant else { return nil }
        let found = try await context.users.passwordAccount(provider: .email, subject: grant.identifier)
        let hash = found?.passwordHash
        // Read for every address, known or not, so the reads are the same whatever it is.
        let pendingHash = try await pending?.pendingPasswordHash(for: grant.identifier)
        let match = try await context.hasher.verify(password, against: hash ?? context.dummyHash, orPending: hash == nil ? nil : pendingHash)
        switch match {
        case .stored: return hash != nil ? found.map { Verified(user: $0.user, hasSecondFactor: $0.hasSecondFactor) } : nil
        case .pending:
            // The password of a sign-up of this taken address: answered as a new address's
            // unverified account is, and never signed in.
            context.report(
                .signInRefused(account: context.limiter.keys.reference(for: grant.identifier), method: grant.method, reason: .emailNotVerified),
                client: client
            )
            throw GatehouseError.emailNotVerified
        case .neither: return nil
        }
    }
}
