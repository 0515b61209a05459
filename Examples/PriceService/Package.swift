// swift-tools-version: 6.1
// A Hummingbird 2 service that serves StorePrice's prices over HTTP, as a Swift backend would.
// It depends on StorePrice by path; a real project would use
// .package(url: "https://…/StorePrice.git", from: "0.1.0").
import PackageDescription

let package = Package(
    name: "PriceService",
    // StorePrice's own: macOS 15 (and Linux, which needs no entry).
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "StorePrice", path: "../..", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.0"),
    ],
    targets: [
        // The routes, as a library, so that the tests start the same application.
        .target(
            name: "PriceService",
            dependencies: [
                .product(name: "StorePrice", package: "StorePrice"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        // The server: HOST and PORT from the environment (127.0.0.1:8080 by default).
        .executableTarget(
            name: "PriceServer",
            dependencies: [
                "PriceService", .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // A service's shape, measured: a small render's cost per call against formatting its
        // prices one by one, and renders at once (`--check RATIO` for CI).
        .executableTarget(
            name: "service-renders",
            dependencies: [.product(name: "StorePrice", package: "StorePrice")]
        ),
        .testTarget(
            name: "PriceServiceTests",
            dependencies: [
                "PriceService",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
