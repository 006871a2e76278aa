import Testing

/// Waits for `condition`, checking every 10 ms for up to 2 s; records an issue if it never holds.
///
/// For what the server does off the request path (the audit log's writes, the outbox's sends).
func waitUntil(_ condition: () async throws -> Bool) async throws {
    for _ in 0..<200 {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("the condition never held")
}
