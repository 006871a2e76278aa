import Foundation
import Hummingbird
import Logging

/// Logs one line per request: method, path, status, duration and client address.
///
/// The query string's values are never logged, only its keys (`?access_token=…` becomes
/// `access_token=<redacted>`), and no header is logged, so a token or password a client puts
/// in a URL or header cannot reach the log.
package struct RequestLogMiddleware: RouterMiddleware {
    package typealias Context = GatehouseRequestContext
    package let level: Logger.Level

    package init(level: Logger.Level) {
        self.level = level
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context: context, status: response.status.code, start: start)
            return response
        } catch let error as any HTTPResponseError {
            log(request, context: context, status: error.status.code, start: start)
            throw error
        } catch {
            log(request, context: context, status: 500, start: start)
            throw error
        }
    }

    private func log(_ request: Request, context: Context, status: Int, start: ContinuousClock.Instant) {
        guard context.logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "http.method": "\(request.method)", "http.path": "\(request.uri.path)", "http.status": "\(status)",
            "duration.ms": "\((ContinuousClock.now - start).milliseconds)", "client.address": "\(context.client.address)",
        ]
        if let query = Self.redactedQuery(request.uri.query) { metadata["http.query"] = "\(query)" }
        context.logger.log(level: level, "Request", metadata: metadata)
    }

    /// The query's keys with every value replaced, or `nil` when there is no query.
    package static func redactedQuery(_ query: String?) -> String? {
        guard let query, !query.isEmpty else { return nil }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let key = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let safeKey = key.count <= 64 && key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.[]".contains($0)) }
            return (safeKey ? key : "<key>") + "=<redacted>"
        }.prefix(20).joined(separator: "&")
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    package var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
