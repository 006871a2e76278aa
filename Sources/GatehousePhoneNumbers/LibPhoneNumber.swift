import GatehouseCore
import GatehouseModel

/// The ``PhoneNumberReader`` the server runs with: Google's libphonenumber.
package struct LibPhoneNumber: PhoneNumberReader {
    package init() {}

    package func parse(_ text: String, region: String) -> PhoneNumber? {
        PhoneNumber.parse(text, region: region)
    }

    package func country(_ region: String, language: String) -> PhoneCountry? {
        PhoneCountry.make(region, language: language)
    }
}
