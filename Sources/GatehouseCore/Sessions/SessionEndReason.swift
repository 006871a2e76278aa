/// Why a session ended: stored with it, answered to a refresh of it, and the vocabulary the
/// audit log will use.
///
/// The raw values are what the `sessions.revoked_reason` column holds; a row whose value this
/// release does not know reads as revoked for no given reason.
public enum SessionEndReason: String, Sendable, CaseIterable {
    /// The provider said the person withdrew the app's access or deleted their account there.
    case providerRevoked = "provider_revoked"
    /// `logout?scope=local`: this device only.
    case logoutLocal = "logout_local"
    /// `logout?scope=global`: every device.
    case logoutGlobal = "logout_global"
    /// `logout?scope=others`: every other device.
    case logoutOthers = "logout_others"
    /// A rotated refresh token came back after the grace window: only a leaked copy would.
    case refreshTokenReused = "refresh_token_reused"
    /// An operator locked the account.
    case accountLocked = "account_locked"
    /// The password was changed (or removed when a provider claimed an unverified account).
    case passwordChanged = "password_changed"
    /// A reset mail was used: every session ends, whether or not it set a password yet.
    case accountRecovered = "account_recovered"
    /// The browser signed in again and its previous web session was replaced.
    case webSessionReplaced = "web_session_replaced"
    /// A web session unused for longer than its idle timeout.
    case idleTimeout = "idle_timeout"
    /// The user signed this device out from their device list (on another device).
    case signedOutFromDeviceList = "signed_out_from_device_list"
    /// An operator banned the account (`ban_duration`, `users ban`).
    case banned
    /// An operator ended the session (`users sessions --end`).
    case endedByOperator = "ended_by_operator"
    /// The session proved a second factor and a new one at `aal2` took its place.
    case steppedUp = "stepped_up"
    /// The account's email changed (or was put back): every session but the requester's ends.
    case emailChanged = "email_changed"
    /// The owner deleted the account with a grace period: every session ends until a sign-in keeps it.
    case deletionScheduled = "deletion_scheduled"

    /// The reason a logout of `scope` records.
    package init(logout scope: LogoutScope) {
        switch scope {
        case .local: self = .logoutLocal
        case .global: self = .logoutGlobal
        case .others: self = .logoutOthers
        }
    }

    /// What a refresh of a session that ended this way answers.
    package var refreshFailure: RefreshFailure {
        switch self {
        case .refreshTokenReused: .reused
        case .accountLocked, .banned: .accountLocked
        case .logoutLocal, .logoutGlobal, .logoutOthers, .passwordChanged, .accountRecovered, .webSessionReplaced, .idleTimeout,
             .signedOutFromDeviceList, .endedByOperator, .steppedUp, .providerRevoked, .emailChanged, .deletionScheduled:
            .sessionRevoked
        }
    }
}
