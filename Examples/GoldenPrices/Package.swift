// swift-tools-version: 6.1
// A package that tests its own catalog's prices with StorePriceTesting, as an app's server or
// tooling repository would. It depends on StorePrice by path; a real project would use
// .package(url: "https://…/StorePrice.git", from: "0.1.0").
import PackageDescription

let package = Package(
    name: "GoldenPrices",
    // StorePrice's own: macOS 15 (and Linux, which needs no entry).
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "StorePrice", path: "../..", traits: []),
    ],
    targets: [
        .testTarget(
            name: "GoldenPricesTests",
            dependencies: [.product(name: "StorePriceTesting", package: "StorePrice")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
