import Foundation

/// Hands each event to several sinks (the audit log, and a test's recorder).
public struct EventFanOut: EventSink {
    public let sinks: [any EventSink]

    public init(_ sinks: [any EventSink]) {
        self.sinks = sinks
    }

    public func record(_ event: SecurityEvent, at date: Date, address: String?, device: String?) {
        for sink in sinks { sink.record(event, at: date, address: address, device: device) }
    }
}
