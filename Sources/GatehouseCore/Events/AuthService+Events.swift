import Foundation

extension AuthService {
    /// Hands an event to the sink, stamped with the pipeline's clock; never waits on it.
    package func report(_ event: SecurityEvent, address: String?, device: String?) {
        events?.record(event, at: now, address: address, device: device)
    }

    /// Hands an event about a client's request to the sink.
    package func report(_ event: SecurityEvent, client: ClientInfo) {
        report(event, address: client.address, device: DeviceLabel.make(userAgent: client.userAgent))
    }
}
