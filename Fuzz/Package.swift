// swift-tools-version: 6.1
// libFuzzer targets for StorePrice's parsers, in their own package so that `swift build` of the
// library never builds them. Build and run with Scripts/fuzz.sh, which adds
// -sanitize=fuzzer,address; see README.md here.
import PackageDescription

let package = Package(
    name: "StorePriceFuzz",
    dependencies: [
        .package(name: "StorePrice", path: "../"),
    ],
    targets: [
        .executableTarget(
            name: "storeprice-fuzz",
            dependencies: [.product(name: "StorePrice", package: "StorePrice")],
            path: "Sources/StorePriceFuzz",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
