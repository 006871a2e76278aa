// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Gatehouse",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "GatehouseModel", targets: ["GatehouseModel"]),
        .library(name: "LoginCore", targets: ["LoginCore"]),
        .library(name: "GatehouseServer", targets: ["GatehouseServer"]),
        .library(name: "GatehouseClient", targets: ["GatehouseClient"]),
        .executable(name: "gatehouse", targets: ["gatehouse"]),
        .executable(name: "gatehouse-server", targets: ["gatehouse-server"]),
        .executable(name: "gatehouse-hasher", targets: ["gatehouse-hasher"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/GraphQLSwift/Graphiti.git", from: "3.1.0"),
        .package(url: "https://github.com/GraphQLSwift/GraphQL.git", exact: "4.3.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CArgon2",
            pkgConfig: "libargon2",
            providers: [.apt(["libargon2-dev"]), .brew(["argon2"])]
        ),
        // libsodium's argon2id: the fastest implementation Debian ships (AVX2 chosen at run time).
        .systemLibrary(
            name: "CSodium",
            pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
        ),
        // libqrencode: QR codes of authenticator-app factors, drawn on the server.
        .systemLibrary(
            name: "CQREncode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        // argon2id's memory and helper processes (issue 41): a thread's reused memory, libsodium's
        // hash in it, and the wire between a hashing thread and its helper, with nothing else so
        // the helper stays small.
        .target(name: "GatehouseHashWorker", dependencies: ["CSodium", "CSodiumMemory"]),
        // SQLiteNIO's SQLite configured where Swift cannot reach (a variadic call).
        .target(name: "CSQLiteSettings", dependencies: [.product(name: "SQLiteKit", package: "sqlite-kit")]),
        // Memory lent to libsodium's argon2id (its `mmap` and `munmap`, interposed on Linux),
        // so a hashing thread reuses its 19 MiB instead of faulting in fresh pages every hash.
        .target(name: "CSodiumMemory", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .executableTarget(name: "gatehouse-hasher", dependencies: ["CSodium", "GatehouseHashWorker"]),
        .target(name: "GatehouseQRCode", dependencies: ["CQREncode", "GatehouseCore"]),
        .target(
            name: "CPhoneNumber",
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("protobuf")]
        ),
        .target(name: "GatehouseModel"),
        .target(name: "LoginCore", dependencies: ["GatehouseModel"]),
        .target(name: "GatehouseClient", dependencies: ["GatehouseModel", "LoginCore"]),
        // The core: the sign-in pipeline, errors, records, repository protocols, limits, tokens,
        // one-time secrets and the message seam. No HTTP framework.
        .target(
            name: "GatehouseCore",
            dependencies: [
                "CArgon2",
                "CSodium",
                "GatehouseHashWorker",
                "GatehouseModel",
                "LoginCore",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 passkeys: `_RSA` public keys with PKCS#1 v1.5 verification.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The common-password list new passwords are checked against, and its notice.
            resources: [.copy("Resources")]
        ),
        // Adapters: each depends on the core only.
        .target(
            name: "GatehouseSQL",
            dependencies: [
                "CSQLiteSettings",
                "GatehouseCore",
                "GatehouseModel",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "GatehouseDelivery",
            dependencies: [
                "GatehouseCore",
                "GatehouseModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // The account mail's text and HTML templates.
            resources: [.copy("Resources")]
        ),
        .target(
            name: "GatehouseOIDC",
            dependencies: [
                "GatehouseCore",
                "GatehouseModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .target(name: "GatehousePhoneNumbers", dependencies: ["CPhoneNumber", "GatehouseCore", "GatehouseModel"]),
        // The HTTP foundation every surface shares: context, strict decoding, middlewares.
        .target(
            name: "GatehouseHTTP",
            dependencies: [
                "GatehouseCore",
                "GatehouseModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // One module per surface; none imports another.
        .target(
            name: "RESTSurface",
            dependencies: [
                "GatehouseCore",
                "GatehouseHTTP",
                "GatehouseModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            ]
        ),
        .target(
            name: "GraphQLSurface",
            dependencies: [
                "GatehouseCore",
                "GatehouseHTTP",
                "GatehouseModel",
                "LoginCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Graphiti", package: "Graphiti"),
                .product(name: "GraphQL", package: "GraphQL"),
            ]
        ),
        .target(
            name: "SupabaseSurface",
            dependencies: [
                "GatehouseCore",
                "GatehouseHTTP",
                "GatehouseModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "WebSurface",
            dependencies: [
                "GatehouseCore",
                "GatehouseHTTP",
                "GatehouseModel",
                "LoginCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Resources")]
        ),
        // The composition root: buildApplication and buildRouter.
        .target(
            name: "GatehouseServer",
            dependencies: [
                "GatehouseCore",
                "GatehouseDelivery",
                "GatehouseHTTP",
                "GatehouseModel",
                "GatehouseOIDC",
                "GatehousePhoneNumbers",
                "GatehouseQRCode",
                "GatehouseSQL",
                "GraphQLSurface",
                "LoginCore",
                "RESTSurface",
                "SupabaseSurface",
                "WebSurface",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(
            name: "GatehouseCommands",
            dependencies: [
                "GatehouseCore",
                "GatehouseDelivery",
                "GatehouseHTTP",
                "GatehousePhoneNumbers",
                "GatehouseSQL",
                "GatehouseServer",
                "LoginCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "gatehouse",
            dependencies: [
                "GatehouseCore",
                "GatehouseModel",
                "GatehouseSQL",
                "GatehousePhoneNumbers",
                "GatehouseClient",
                "GatehouseCommands",
                "GatehouseQRCode",
                "GatehouseServer",
                "LoginCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "gatehouse-server",
            dependencies: [
                "GatehouseCommands",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "GatehouseTestSupport",
            dependencies: [
                "GatehouseClient",
                "GatehouseCore",
                "GatehousePhoneNumbers",
                "GatehouseSQL",
                "GatehouseServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "gatehouse-bench",
            dependencies: [
                "GatehouseCore",
                "GatehouseHTTP",
                "GatehousePhoneNumbers",
                "GatehouseSQL",
                .product(name: "Crypto", package: "swift-crypto"),
                "GatehouseClient",
                "GatehouseServer",
                "GatehouseTestSupport",
                "LoginCore",
                "GatehouseDelivery",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "LoginCoreTests", dependencies: ["LoginCore"]),
        // The pipeline and its feature services on real SQLite, with no HTTP framework and no surface.
        .testTarget(
            name: "GatehouseCoreTests",
            dependencies: [
                "GatehouseCore", "GatehouseSQL", "GatehouseModel", "LoginCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "GatehouseServerTests",
            dependencies: [
                "GatehouseCore",
                "GatehouseHashWorker",
                "CSodiumMemory",
                "GatehouseDelivery",
                "GatehouseHTTP",
                "GatehouseOIDC",
                "GatehousePhoneNumbers",
                "GatehouseQRCode",
                "GatehouseSQL",
                "GraphQLSurface",
                "RESTSurface",
                "SupabaseSurface",
                "WebSurface",
                "GatehouseModel",
                "GatehouseServer",
                "GatehouseTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
            ]
        ),
        .testTarget(name: "GatehouseCLITests", dependencies: ["GatehouseCore", "GatehouseDelivery", "GatehouseServer", "GatehouseTestSupport"]),
        .testTarget(
            name: "GatehouseClientTests",
            dependencies: [
                "GatehouseClient", "GatehouseServer", "GatehouseTestSupport", "LoginCore",
                "GatehouseCore", "GatehouseDelivery", "GatehousePhoneNumbers", "GatehouseSQL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
