import AsyncHTTPClient
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOHTTP1

/// oidc-provider-mock 0.4.8 (a real Authlib OpenID provider, from PyPI) on a free loopback
/// port, for the Swift suites that sign in with Google. It runs `e2e/oidc_mock_server.py`
/// under the Python 3.12 venv that `scripts/oidc-provider.sh` makes (`OIDC_MOCK_PYTHON`).
public final class OIDCMockProvider: @unchecked Sendable {
    /// `http://127.0.0.1:<port>`, the issuer.
    public let url: String
    let process: Process
    let http: HTTPClient

    /// The venv's Python, or `nil` where there is none (the suites then skip, unless
    /// `GATEHOUSE_REQUIRE_OIDC` says they must run).
    public static var python: String? {
        let path = ProcessInfo.processInfo.environment["OIDC_MOCK_PYTHON"]
        if let path, FileManager.default.isExecutableFile(atPath: path) { return path }
        precondition(ProcessInfo.processInfo.environment["GATEHOUSE_REQUIRE_OIDC"] == nil, "OIDC_MOCK_PYTHON is required")
        return nil
    }

    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("e2e/oidc_mock_server.py").path

    /// Starts the provider and waits until it answers.
    public init(python: String) async throws {
        let port = try Self.freePort()
        url = "http://127.0.0.1:\(port)"
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.script, String(port), "3600"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        for _ in 0..<200 {
            if (try? await get("/.well-known/openid-configuration")) == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        await stop()
        throw OIDCMockError("oidc-provider-mock did not answer on \(url)")
    }

    /// A port the kernel just handed out on 127.0.0.1, released for the provider to take.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw OIDCMockError("no socket") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw OIDCMockError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Stops the provider; the wait runs off the concurrency pool, which has a thread per core.
    /// SIGKILL: a child started from a thread that blocks SIGTERM (an event loop's) inherits the block.
    public func stop() async {
        let process = process
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                continuation.resume()
            }
        }
        try? await http.shutdown()
    }

    /// Sets a person's claims at the provider (`PUT /users/{sub}`).
    public func putUser(sub: String, email: String, verified: Bool = true, name: String) async throws {
        let claims: [String: Any] = ["email": email, "email_verified": verified, "name": name]
        var request = HTTPClientRequest(url: "\(url)/users/\(sub)")
        request.method = .PUT
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: claims)))
        let response = try await http.execute(request, timeout: .seconds(5))
        guard response.status == .noContent else { throw OIDCMockError("PUT /users answered \(response.status.code)") }
    }

    /// A code as a native app gets one: the authorization request, approved as `sub`.
    public func code(sub: String, clientID: String, nonce: String, redirectURI: String) async throws -> String {
        var components = URLComponents(string: "\(url)/oauth2/authorize")!
        components.queryItems = [
            .init(name: "response_type", value: "code"), .init(name: "client_id", value: clientID),
            .init(name: "redirect_uri", value: redirectURI), .init(name: "scope", value: "openid email profile"),
            .init(name: "state", value: UUID().uuidString), .init(name: "nonce", value: nonce),
        ]
        var request = HTTPClientRequest(url: components.string!)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: "sub=\(sub)"))
        let response = try await http.execute(request, timeout: .seconds(5))
        guard let location = response.headers.first(name: "Location"),
              let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw OIDCMockError("the provider answered \(response.status.code) without a code") }
        return code
    }

    /// An ID token issued to `clientID`, as Google's SDK hands one to an app.
    public func idToken(sub: String, clientID: String, nonce: String) async throws -> String {
        let redirect = "http://127.0.0.1:9/callback"
        let code = try await code(sub: sub, clientID: clientID, nonce: nonce, redirectURI: redirect)
        var request = HTTPClientRequest(url: "\(url)/oauth2/token")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=authorization_code&code=\(code)&client_id=\(clientID)&client_secret=any&redirect_uri="
            + (redirect.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await http.execute(request, timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 20)
        struct Answer: Decodable { let id_token: String }
        return try JSONDecoder().decode(Answer.self, from: Data(buffer: body)).id_token
    }

    private func get(_ path: String) async throws -> UInt {
        let response = try await http.execute(HTTPClientRequest(url: url + path), timeout: .seconds(1))
        return response.status.code
    }
}

public struct OIDCMockError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
