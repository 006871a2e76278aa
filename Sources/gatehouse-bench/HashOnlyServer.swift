import Foundation
import GatehouseCore
#if canImport(Glibc)
import Glibc
#endif

/// The floor the login phases are read against: an HTTP server that does nothing but hash.
///
/// One blocking thread per connection reads a request, hashes its body with the bound's own
/// implementation (libsodium in the thread's reused memory) and answers `200 {}`: no routing,
/// no JSON, no database, no token, no hand-off between threads. What it reaches under wrk is
/// what any server can reach on this machine with the client sharing its cores, so the gap
/// between it and Gatehouse is Gatehouse's own cost per sign-in, apart from the hash.
final class HashOnlyServer: @unchecked Sendable {
    /// The loopback URL it answers on.
    let url: String
    private let listener: Int32

    /// Listens on a free loopback port and answers until ``stop()``.
    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, address, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw WrkLoad.Failure(description: "the hash-only server could not listen: errno \(errno)") }
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        self.listener = listener
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }  // closed by stop()
                Thread { Self.serve(connection) }.start()
            }
        }.start()
    }

    /// Stops accepting; each connection's thread ends when its client closes.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Answers one connection's requests until it closes.
    private static func serve(_ connection: Int32) {
        defer { close(connection) }
        var noDelay: Int32 = 1
        setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let salt = [UInt8](repeating: 7, count: 16), hash = HashTiming.candidates[0].hash
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            if let (headEnd, bodyLength) = Self.head(in: buffer), buffer.count >= headEnd + bodyLength {
                try? hash(Array(buffer[headEnd..<headEnd + bodyLength]), salt)
                buffer.removeFirst(headEnd + bodyLength)
                guard answer.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == answer.count else { return }
                continue
            }
            // No whole request yet: read more.
            let read = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { return }
            buffer += chunk[..<read]
        }
    }

    /// Where a complete request head in `buffer` ends, and its body's length.
    private static func head(in buffer: [UInt8]) -> (end: Int, bodyLength: Int)? {
        let terminator = Array("\r\n\r\n".utf8)
        guard buffer.count >= 4, let start = (0...(buffer.count - 4)).first(where: { buffer[$0..<$0 + 4].elementsEqual(terminator) }) else { return nil }
        let head = String(decoding: buffer[..<start], as: UTF8.self).lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return (start + 4, length)
    }
}
