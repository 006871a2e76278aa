/// What the composition root built for one app: the sign-in pipeline, the services every app
/// has, and each optional feature service the app enables (`nil` when it does not).
///
/// Surfaces receive this and call services, never repositories. A surface that mounts an
/// optional feature's routes only when the service exists takes the service itself; one that
/// always mounts them (GraphQL's schema, GoTrue's `/otp`) asks for it here and gets the one
/// refusal every surface shares when the app does not offer it.
public struct GatehouseServices: Sendable {
    /// Every way in, sessions, refresh and sign-out.
    public let pipeline: SignInPipeline
    /// Sign-up, verification, reset and password changes.
    package let accounts: EmailAccounts
    /// An account's record, identities and name as its owner sees them.
    package let profiles: Profiles
    /// The device list.
    package let devices: Devices
    /// Phone codes, when the app offers phone sign-in.
    package let phone: PhoneCodes?
    /// Passkeys, when the server has a relying party.
    package let passkeys: PasskeyService?
    /// The external provider (Google), when one is configured.
    package let providers: ProviderSignIn?
    /// Two-step verification, when the app file turns it on.
    package let factors: SecondFactors?
    /// Deleting one's own account.
    package let deletion: AccountDeletion
    /// Guest accounts, when the app offers them.
    package let guests: GuestAccounts?
    /// Changing the email with both addresses confirming, when the app sends account mail.
    package let emailChange: EmailChange?

    package init(
        pipeline: SignInPipeline, accounts: EmailAccounts, profiles: Profiles, devices: Devices, phone: PhoneCodes?,
        passkeys: PasskeyService?, providers: ProviderSignIn?, factors: SecondFactors? = nil, deletion: AccountDeletion,
        emailChange: EmailChange? = nil, guests: GuestAccounts? = nil
    ) {
        self.emailChange = emailChange
        self.guests = guests
        self.factors = factors
        self.deletion = deletion
        self.pipeline = pipeline
        self.accounts = accounts
        self.profiles = profiles
        self.devices = devices
        self.phone = phone
        self.passkeys = passkeys
        self.providers = providers
    }

    /// Phone codes, or the refusal of an app without phone sign-in.
    package func phoneCodes() throws -> PhoneCodes {
        guard let phone else { throw GrantKind.phoneCode.notOffered }
        return phone
    }

    /// Passkeys, or the refusal of a server without a relying party.
    package func passkeyService() throws -> PasskeyService {
        guard let passkeys else { throw GrantKind.passkey.notOffered }
        return passkeys
    }

    /// Two-step verification, or the refusal of an app without it.
    package func secondFactors() throws -> SecondFactors {
        guard let factors else { throw GrantKind.secondFactor.notOffered }
        return factors
    }

    /// Changing the email, or the refusal of a server that sends no account mail.
    package func emailChanges() throws -> EmailChange {
        guard let emailChange else { throw GatehouseError.featureNotOffered(.emailChange) }
        return emailChange
    }

    /// The provider registry, or the refusal of a server without providers.
    package func providerSignIn() throws -> ProviderSignIn {
        guard let providers else { throw GrantKind.provider.notOffered }
        return providers
    }
}

extension GatehouseServices {
    /// The new-password policy sign-up and reset apply, for operators' passwords to pass too.
    package var passwordPolicy: PasswordPolicy { pipeline.context.passwords }
}
