import GatehouseModel

/// Reads the phone numbers people type, and describes the regions a picker offers.
///
/// The core's seam for libphonenumber: the `GatehousePhoneNumbers` adapter implements it, so
/// nothing in the pipeline links the C++ library.
package protocol PhoneNumberReader: Sendable {
    /// `text` as dialled in `region` (a leading `+` overrides it); `nil` when it is no number at all.
    func parse(_ text: String, region: String) -> PhoneNumber?
    /// A region as a country picker shows it, in `language`; `nil` for an unknown region.
    func country(_ region: String, language: String) -> PhoneCountry?
}
