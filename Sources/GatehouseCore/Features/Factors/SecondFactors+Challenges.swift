import Foundation

extension SecondFactors: GrantVerifier {
    /// How long a challenge waits for its answer.
    static let challengeLifetime: TimeInterval = 300
    /// Digits in an authenticator app's code.
    static let codeLength = 6

    /// Starts a challenge of one of the signed-in account's factors (a verified one, or one
    /// waiting for its first code); its answer is a ``Grant/secondFactor(_:)``.
    /// Its read and its one write run one after the other on the storage's thread.
    /// - Throws: ``GatehouseError/notFound`` for no such live factor.
    package func challenge(factorID: String, for principal: Principal) async throws -> FactorChallengeRecord {
        try await context.nearStorage {
            guard let factor = try await factors.factor(id: factorID, userID: principal.user.id), isLive(factor) else {
                throw GatehouseError.notFound
            }
            return try await newChallenge(factorID: factor.id, userID: principal.user.id)
        }
    }

    /// Starts a challenge any of the account's recovery codes answers (and any of its factors'
    /// codes, when `factorID` names none).
    package func recoveryChallenge(for principal: Principal) async throws -> FactorChallengeRecord {
        try await context.nearStorage {
            guard try await context.hasVerifiedFactor(userID: principal.user.id) else { throw GatehouseError.notFound }
            return try await newChallenge(factorID: nil, userID: principal.user.id)
        }
    }

    /// The grant answering a challenge for the signed-in account.
    package func grant(challengeID: String, answer: SecondFactorProof.Answer, for principal: Principal) -> Grant {
        .secondFactor(SecondFactorProof(
            userID: principal.user.id, account: Self.identifier(of: principal.user), challengeID: challengeID, answer: answer
        ))
    }

    private func newChallenge(factorID: String?, userID: String) async throws -> FactorChallengeRecord {
        let now = context.now
        let challenge = FactorChallengeRecord(
            id: RecordID.make(), userID: userID, factorID: factorID, createdAt: now,
            expiresAt: now.addingTimeInterval(Self.challengeLifetime)
        )
        try await factors.createChallenge(challenge)
        return challenge
    }

    package var kinds: [GrantKind] { [.secondFactor] }

    package func check(_ grant: Grant) throws {
        guard case .secondFactor(let proof) = grant else { return }
        switch proof.answer {
        case .code(let code):
            let digits = code.filter { $0 != " " }
            guard digits.count == Self.codeLength, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
                throw GatehouseError.invalidRequest("The code must be \(Self.codeLength) digits")
            }
        case .recoveryCode(let code):
            guard policy.recoveryCodes else { throw GatehouseError.featureNotOffered(.secondFactors) }
            guard RecoveryCodes.normalized(code) != nil else {
                throw GatehouseError.invalidRequest("A recovery code is \(RecoveryCodes.length) letters and digits")
            }
        }
    }

    package func verify(_ grant: Grant, from client: ClientInfo) async throws -> Verified? {
        guard case .secondFactor(let proof) = grant else { return nil }
        let now = context.now
        guard let challenge = try await factors.challenge(id: proof.challengeID, userID: proof.userID), challenge.isOpen(at: now),
              let user = try await context.users.user(id: proof.userID)
        else { throw GatehouseError.codeRejected(.expired) }
        switch proof.answer {
        case .code(let code):
            guard let factorID = challenge.factorID, let factor = try await factors.factor(id: factorID, userID: user.id), isLive(factor),
                  let secret = FactorSecret.open(factor.sealedSecret, factorID: factor.id, kek: kek)
            else { throw GatehouseError.codeRejected(.expired) }
            // A step at or before the last accepted one is a replay; the session's transaction
            // checks again, so of two requests racing with one code only one stores its sign-in.
            guard let step = TOTP(secret: secret).match(code.filter { $0 != " " }, at: now), factor.lastStep.map({ $0 < step }) ?? true else {
                return try await refuse(challenge)
            }
            var verified = Verified(user: user)
            verified.writes = [
                .factorStepAccepted(factorID: factor.id, userID: user.id, step: step, at: now),
                .factorChallengeCompleted(id: challenge.id, at: now),
            ]
            if factor.status == .unverified {
                verified.reports = [.factorVerified(userID: user.id, factorID: factor.id)]
                // Only a first code can make the account's first verified factor (and its recovery codes).
                if policy.recoveryCodes, try await !context.hasVerifiedFactor(userID: user.id) {
                    let (codes, hashes) = newRecoveryCodes(userID: user.id)
                    verified.recoveryCodes = codes
                    verified.writes.append(.recoveryCodesReplaced(userID: user.id, hashes: hashes, at: now))
                }
            }
            return verified
        case .recoveryCode(let code):
            guard try await factors.useRecoveryCode(userID: user.id, hash: RecoveryCodes.hash(code, userID: user.id), at: now) else {
                return try await refuse(challenge)
            }
            try await recoveryCodeUsed(by: user, from: client)
            var verified = Verified(user: user)
            verified.writes = [.factorChallengeCompleted(id: challenge.id, at: now)]
            return verified
        }
    }

    /// Counts a wrong answer on the challenge; the pipeline counts it into the back-off too.
    private func refuse(_ challenge: FactorChallengeRecord) async throws -> Verified? {
        guard let failures = try await factors.recordChallengeFailure(id: challenge.id, at: context.now) else {
            throw GatehouseError.codeRejected(.expired)
        }
        let left = FactorChallengeRecord.maximumFailures - failures
        throw GatehouseError.codeRejected(left > 0 ? .incorrect(attemptsLeft: left) : .exhausted)
    }
}
