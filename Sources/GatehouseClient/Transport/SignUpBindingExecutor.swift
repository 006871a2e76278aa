import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps the binding a sign-up's answer carries (`Gatehouse-Sign-Up`) and presents it with
/// every later request, so the mail's link, opened in this app, signs in here.
///
/// The server lets a sign-up mail's link sign in only where the sign-up was made: anywhere else
/// it verifies the address and answers `email_verified_sign_in`. The binding is kept in memory
/// only; a new sign-up replaces it.
final class SignUpBindingExecutor: HTTPExecutor, @unchecked Sendable {
    static let header = "Gatehouse-Sign-Up"
    private let wrapped: any HTTPExecutor
    private let lock = NSLock()
    private var binding: String?

    init(wrapping executor: any HTTPExecutor) {
        wrapped = executor
    }

    func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var request = request
        if let binding = lock.withLock({ binding }) { request.setValue(binding, forHTTPHeaderField: Self.header) }
        let (data, response) = try await wrapped.data(for: request)
        if let received = response.value(forHTTPHeaderField: Self.header), !received.isEmpty {
            lock.withLock { binding = received }
        }
        return (data, response)
    }
}
