import GatehouseCore
import SQLKit

extension SessionChangeFeed {
    /// Reads the change table every ``pollInterval`` until cancelled, forgetting each user named.
    func poll() async {
        struct Change: Decodable { let seq: Int64; let user_id: String }
        struct Latest: Decodable { let seq: Int64? }
        let database = repository.database
        var last = (try? await database.raw("SELECT MAX(seq) AS seq FROM session_changes").first(decoding: Latest.self)?.seq) ?? 0
        var polls = 0
        while !Task.isCancelled {
            do { try await Task.sleep(for: pollInterval) } catch { return }  // shutting down
            do {
                let changes = try await database.raw("""
                    SELECT seq, user_id FROM session_changes WHERE seq > \(bind: last) ORDER BY seq LIMIT 1000
                    """).all(decoding: Change.self)
                for change in changes { repository.liveness.invalidate(userID: change.user_id) }
                last = changes.last?.seq ?? last
                if !repository.liveness.isLive { repository.liveness.resume() }
                polls += 1
                // Now and then, drop what every reader has long seen.
                if polls % 240 == 0, last > 1000 {
                    let cutoff = last - 1000
                    try await repository.write { try await database.raw("DELETE FROM session_changes WHERE seq <= \(bind: cutoff)").run() }
                }
            } catch {
                if Task.isCancelled { return }
                // Unread changes could be missed: read the database until the table answers again.
                repository.liveness.suspend()
                logger.warning("Session change table unreadable", metadata: ["error": "\(error)"])
            }
        }
    }
}
