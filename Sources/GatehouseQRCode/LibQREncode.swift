import GatehouseCore

/// The core's ``QRCodeRenderer`` over libqrencode: what the composition root hands the
/// second-factor service.
public struct LibQREncode: QRCodeRenderer {
    public init() {}

    public func svg(_ text: String, label: String) -> String? {
        QRCode(text)?.svg(label: label)
    }
}
