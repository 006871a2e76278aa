import Foundation
import GatehouseModel

/// How a session's person proved who they are: its level and each method with its time.
///
/// Set when the session opens and never changed: a step up opens a new session that carries
/// the old one's methods and the new one (``SignInPipeline/stepUp(_:of:from:)``), so a refresh
/// keeps the level its session was opened with. Access tokens carry it as `aal` and `amr`.
public struct SessionAssurance: Sendable, Equatable {
    public var level: AssuranceLevel
    /// Oldest first.
    public var methods: [AuthenticationMethodReference]

    public init(level: AssuranceLevel = .aal1, methods: [AuthenticationMethodReference] = []) {
        self.level = level
        self.methods = methods
    }

    /// A first sign-in's assurance: a passkey (with user verification, which the relying party
    /// requires) is two factors at once; every other way in is one.
    package static func signedIn(with method: SignInMethodName, at date: Date) -> SessionAssurance {
        let level: AssuranceLevel = method == .passkey ? .aal2 : .aal1
        return SessionAssurance(level: level, methods: [Self.reference(method, at: date)])
    }

    /// This assurance with a second factor proved at `date`: `aal2`.
    ///
    /// Each method is named once, at its latest use: a method proved again moves to the end
    /// with its new time, so a session stepped up again and again keeps a short `amr` (and its
    /// access tokens a steady size) instead of one entry more per step-up.
    package func steppedUp(with method: SignInMethodName, at date: Date) -> SessionAssurance {
        let proved = Self.reference(method, at: date)
        return SessionAssurance(level: .aal2, methods: methods.filter { $0.method != proved.method } + [proved])
    }

    /// When the session last proved a factor (its newest method), if it names any.
    package var lastProvedAt: Date? {
        methods.map(\.timestamp).max().map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    private static func reference(_ method: SignInMethodName, at date: Date) -> AuthenticationMethodReference {
        AuthenticationMethodReference(method: method.authenticationMethod, timestamp: Int(date.timeIntervalSince1970.rounded(.down)))
    }
}

extension SessionAssurance {
    /// The methods as stored beside the session (JSON).
    package var storedMethods: String {
        (try? JSONEncoder().encode(methods)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// The assurance of a stored session; a session opened before levels were kept is `aal1`.
    package init(storedLevel: String?, storedMethods: String?) {
        level = storedLevel.flatMap(AssuranceLevel.init(rawValue:)) ?? .aal1
        methods = storedMethods.flatMap { try? JSONDecoder().decode([AuthenticationMethodReference].self, from: Data($0.utf8)) } ?? []
    }
}
