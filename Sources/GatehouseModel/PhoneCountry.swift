/// What a phone screen needs about one region: one entry of `GET /api/auth/phone/countries`.
///
/// LoginCore and the web page format and check numbers from this data. ``mobilePattern`` and
/// ``mobileLengths`` are libphonenumber's own rule for the region's mobile numbers, the rule the
/// server checks with, so a screen never calls a number valid that the server refuses.
public struct PhoneCountry: Codable, Sendable, Equatable, Hashable {
    /// ISO 3166 alpha-2 (`IN`).
    public var code: String
    /// `+91`.
    public var dialCode: String
    /// The region's name in the requested language (CLDR, through Foundation's `Locale`).
    public var name: String
    /// The flag emoji (regional indicator symbols).
    public var flag: String
    /// An example mobile number as the screen shows it (`81234 56789`).
    public var example: String
    /// How many national digits a mobile number has (10 for India).
    public var digits: Int
    /// Group sizes for formatting as you type (`[5, 5]` → `98765 43210`).
    public var grouping: [Int]
    /// libphonenumber's pattern for the national digits of a mobile number, matched whole
    /// (`(?:...)` ECMAScript and ICU alike); `nil` from a server that does not send it.
    public var mobilePattern: String?
    /// The digit counts a mobile number may have (`[10]` for India); `nil` with no pattern.
    public var mobileLengths: [Int]?

    public init(
        code: String, dialCode: String, name: String, flag: String, example: String, digits: Int, grouping: [Int],
        mobilePattern: String? = nil, mobileLengths: [Int]? = nil
    ) {
        self.code = code
        self.dialCode = dialCode
        self.name = name
        self.flag = flag
        self.example = example
        self.digits = digits
        self.grouping = grouping
        self.mobilePattern = mobilePattern
        self.mobileLengths = mobileLengths
    }

    enum CodingKeys: String, CodingKey {
        case code, name, flag, example, digits, grouping
        case dialCode = "dial_code", mobilePattern = "mobile_pattern", mobileLengths = "mobile_lengths"
    }
}

/// The answer to sending a code (`POST /api/auth/phone/otp`): where the code went and its timings.
public struct PhoneCodeSent: Codable, Sendable, Equatable {
    /// Names this code in `/verify` and `/otp/resend`.
    public var verificationID: String
    /// The number with all but its last digits hidden (`+91 ••••• •3210`).
    public var phoneMasked: String
    /// Seconds until the code expires.
    public var expiresIn: Int
    /// Seconds until a resend is allowed.
    public var resendAfter: Int
    /// How many digits the code has.
    public var codeLength: Int

    public init(verificationID: String, phoneMasked: String, expiresIn: Int, resendAfter: Int, codeLength: Int) {
        self.verificationID = verificationID
        self.phoneMasked = phoneMasked
        self.expiresIn = expiresIn
        self.resendAfter = resendAfter
        self.codeLength = codeLength
    }

    enum CodingKeys: String, CodingKey {
        case verificationID = "verification_id", phoneMasked = "phone_masked", expiresIn = "expires_in"
        case resendAfter = "resend_after", codeLength = "code_length"
    }
}
