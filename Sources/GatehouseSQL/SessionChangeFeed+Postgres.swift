import GatehouseCore
import Logging
import PostgresKit

extension SessionChangeFeed {
    /// `LISTEN`s until cancelled, reconnecting with back-off; the cache serves only while listening.
    func listen(_ configuration: PostgresConnection.Configuration) async {
        let cache = repository.liveness
        var delay = Duration.milliseconds(50)
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: attempt, logger: logger)
                do {
                    try await connection.listen(on: SchemaMigrations.sessionChannel) { notifications in
                        // Listening from here on: anything committed later arrives below.
                        cache.resume()
                        delay = .milliseconds(50)
                        for try await notification in notifications { cache.invalidate(userID: notification.payload) }
                    }
                } catch {
                    if !Task.isCancelled { logger.warning("Session change listener lost its connection", metadata: ["error": "\(error)"]) }
                }
                try? await connection.close()
            } catch {
                logger.warning("Session change listener cannot connect", metadata: ["error": "\(error)"])
            }
            // Whatever was missed meanwhile, requests read the database until the next listen.
            cache.suspend()
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
