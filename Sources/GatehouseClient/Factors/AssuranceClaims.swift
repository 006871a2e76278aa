import GatehouseModel

/// The part of an access token's claims ``Session/assuranceLevel`` reads.
struct AssuranceClaims: Decodable {
    let aal: AssuranceLevel?
}
