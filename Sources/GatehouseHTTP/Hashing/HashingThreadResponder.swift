import GatehouseCore
import HummingbirdCore
import NIOCore

/// Answers each password sign-in from a hashing thread, from its first middleware to its
/// answer's last byte written to the connection.
///
/// On an SQLite file a password sign-in runs on a hashing thread from its limits to its token,
/// its statements on that thread's own connection (``SignInPipeline``). Around it, Hummingbird
/// ran the request's routing, the body's decoding and the answer's encoding and write on
/// Swift's global pool: so the finished sign-in waited for a thread of that pool to wake before
/// the event loop was handed its answer. Wrapped here, the whole request prefers the hashing
/// pool as its task executor, and the answer goes from the hashing thread straight to the
/// event loop. Measured on two cores, flipping between the two ways every half second in one
/// server under wrk, it signed in 1.0 to 3.7 % more people a second at 2 connections in each of
/// nine 40-second windows, and made no difference at 8 and 16 (issue 41).
///
/// With the hashing queue full a sign-in goes the usual way, so its limits answer first and
/// the hasher refuses it as before. A body still on its way suspends the task, which does not
/// hold the thread; it resumes in the hashing queue. Each connection is served with a
/// ``ConnectionExecutor`` (``serving(_:)``), so a connection that signs in again and again
/// reaches its hashing thread straight from the event loop; a request of any other kind that
/// resumes on a hashing thread is sent on to Swift's pool before it runs.
package struct HashingThreadResponder: Sendable {
    /// The threads the sign-ins run on.
    package let pool: HashingPool
    /// The requests answered from there.
    package let routes: [PasswordSignInRoute]

    package init(pool: HashingPool, routes: [PasswordSignInRoute]) {
        self.pool = pool
        self.routes = routes
    }

    /// `base`, with the password sign-ins answered from a hashing thread.
    package func wrapping(_ base: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        let pool = pool, routes = routes
        return { (request: Request, writer: consuming ResponseWriter, channel: any Channel) async throws in
            let signIn = routes.contains(where: { $0.matches(request) })
            let connection = ConnectionExecutor.current
            connection?.answering(signIn: signIn)
            guard signIn, pool.hasRoom else {
                guard connection != nil, pool.isCurrent else { return try await base(request, writer, channel) }
                // Resumed on a hashing thread after a sign-in; anything else goes to Swift's pool.
                var held: ResponseWriter? = consume writer
                return try await withTaskExecutorPreference(globalConcurrentExecutor) {
                    guard let writer = held.take() else { return }
                    try await base(request, writer, channel)
                }
            }
            var held: ResponseWriter? = consume writer
            try await pool.runHere { () async throws in
                guard let writer = held.take() else { return }
                try await base(request, writer, channel)
            }
        }
    }

    /// Serves one connection with a ``ConnectionExecutor`` as its tasks' executor preference.
    package func serving(_ connection: () async -> Void) async {
        let executor = ConnectionExecutor(pool: pool)
        await ConnectionExecutor.$current.withValue(executor) {
            await withTaskExecutorPreference(executor) { await connection() }
        }
    }
}
