#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole reads and writes on a blocking stream socket, retried through signals.
public enum Descriptor {
    /// Exactly `count` bytes, or `nil` if the stream ended or failed first.
    public static func read(_ descriptor: Int32, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress! + done, count - done) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let noSignal: Int32 = 0  // Darwin: the socket's SO_NOSIGPIPE instead
    #endif

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// Writes every byte; `false` if the peer is gone. Never raises `SIGPIPE`.
    public static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + done, bytes.count - done, noSignal) }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            done += sent
        }
        return true
    }
}
