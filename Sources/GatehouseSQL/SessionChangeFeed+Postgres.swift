import Foundation
import GatehouseCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresKit

extension SessionChangeFeed {
    /// `LISTEN`s until cancelled, reconnecting with back-off; the cache serves only while
    /// listening and hearing its own heartbeats.
    func listen(_ configuration: PostgresConnection.Configuration) async {
        let cache = repository.liveness
        let delay = NIOLockedValueBox(Duration.milliseconds(50))
        var attempt = 0
        while !Task.isCancelled {
            attempt += 1
            do {
                let (connection, channel) = try await connect(configuration, id: attempt)
                do {
                    try await listen(on: connection, cache: cache) {
                        delay.withLockedValue { $0 = .milliseconds(50) }
                    } abandon: {
                        // Ends the notifications at once, which waiting on a stalled server would not.
                        if let channel { channel.close(mode: .all, promise: nil) } else { Task { try? await connection.close() } }
                    }
                } catch {
                    if !Task.isCancelled { logger.warning("Session change listener lost its connection", metadata: ["error": "\(error)"]) }
                }
                // Closed from this side at once: a stalled server may never answer a goodbye.
                if let channel { try? await channel.close(mode: .all).get() } else { try? await connection.close() }
            } catch {
                logger.warning("Session change listener cannot connect", metadata: ["error": "\(error)"])
            }
            // Whatever was missed meanwhile, requests read the database until the next listen.
            cache.suspend()
            let wait = delay.withLockedValue { current in
                defer { current = min(current * 2, .seconds(5)) }
                return current
            }
            try? await Task.sleep(for: wait)
        }
    }

    /// A connection over a TCP socket of its own with keepalive on (probes after 10 s idle,
    /// every 5 s, 3 times), so the kernel too gives up on a peer that vanished; a Unix socket's
    /// connection as configured.
    private func connect(_ configuration: PostgresConnection.Configuration, id: Int) async throws -> (PostgresConnection, (any Channel)?) {
        guard let host = configuration.host, let port = configuration.port else {
            return (try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger), nil)
        }
        let tcp = NIOBSDSocket.OptionLevel.tcp
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .channelOption(ChannelOptions.Types.SocketOption(level: tcp, name: .init(rawValue: TCP_KEEPIDLE)), value: 10)
            .channelOption(ChannelOptions.Types.SocketOption(level: tcp, name: .init(rawValue: TCP_KEEPINTVL)), value: 5)
            .channelOption(ChannelOptions.Types.SocketOption(level: tcp, name: .init(rawValue: TCP_KEEPCNT)), value: 3)
            .connectTimeout(.seconds(10))
            .connect(host: host, port: port).get()
        var established = PostgresConnection.Configuration(
            establishedChannel: channel, tls: configuration.tls, username: configuration.username, password: configuration.password,
            database: configuration.database
        )
        established.options = configuration.options
        do {
            return (try await PostgresConnection.connect(on: channel.eventLoop, configuration: established, id: id, logger: logger), channel)
        } catch {
            channel.close(mode: .all, promise: nil)
            throw error
        }
    }

    /// One connection's life: the notifications, and beside them the heartbeat, whose missing
    /// return ends the connection (``ListenerStalled``).
    private func listen(
        on connection: PostgresConnection, cache: LiveSessionCache, connected: @escaping @Sendable () -> Void,
        abandon: @escaping @Sendable () -> Void
    ) async throws {
        let token = "\(Self.heartbeatPrefix)\(UUID().uuidString)"
        let lastHeard = NIOLockedValueBox(ContinuousClock.now)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await connection.listen(on: SchemaMigrations.sessionChannel) { notifications in
                    // Listening from here on: anything committed later arrives below.
                    cache.resume()
                    lastHeard.withLockedValue { $0 = .now }
                    connected()
                    for try await notification in notifications {
                        if notification.payload == token {
                            lastHeard.withLockedValue { $0 = .now }
                            cache.heartbeat()
                        } else if !notification.payload.hasPrefix(Self.heartbeatPrefix) {
                            cache.invalidate(userID: notification.payload)
                        }
                    }
                }
            }
            group.addTask {
                while true {
                    try await Task.sleep(for: heartbeatInterval)
                    guard ContinuousClock.now - lastHeard.withLockedValue({ $0 }) < Self.heartbeatWindow else {
                        cache.suspend()
                        abandon()
                        throw ListenerStalled()
                    }
                    // Sent from the pool, so it comes back only if this connection still delivers.
                    try? await repository.database.raw(
                        "SELECT pg_notify(\(bind: SchemaMigrations.sessionChannel), \(bind: token))"
                    ).run()
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }

    /// Heartbeat payloads start with this; user ids never do.
    static let heartbeatPrefix = "~heartbeat:"
}

/// The listener's own heartbeat did not come back in time.
struct ListenerStalled: Error {}
