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
        .package(name: "StorePrice", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.0"),
    ],
    targets: [
        // The routes, as a library, so that the tests start the same application.
        .target(
            name: "PriceService",
            dependencies: [
                .product(name: "StorePrice", package: "StorePrice"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        // The server: 127.0.0.1, on the port in PORT (8080 by default).
        .executableTarget(
            name: "PriceServer",
            dependencies: ["PriceService"]
        ),
        .testTarget(
            name: "PriceServiceTests",
            dependencies: [
                "PriceService",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
