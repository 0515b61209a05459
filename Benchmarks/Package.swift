// swift-tools-version: 6.1
// StorePrice's benchmarks, in their own package so that library users never resolve
// package-benchmark. Run from the repository root:
//   swift package --package-path Benchmarks benchmark
import PackageDescription

let package = Package(
    name: "StorePriceBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "StorePrice", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // ICU's C number formatter called directly: the floor under any ICU-based formatter.
        .target(
            name: "ICUBaseline",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),
        // The benchmark catalog: products × storefronts with realistic price points.
        .target(
            name: "BenchmarkWorkload",
            dependencies: [.product(name: "StorePrice", package: "StorePrice")]
        ),
        .executableTarget(
            name: "CatalogRendering",
            dependencies: [
                "ICUBaseline",
                "BenchmarkWorkload",
                .product(name: "StorePrice", package: "StorePrice"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CatalogRendering",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The C + ICU baseline of `storeprice render`, from the command line.
        .executableTarget(
            name: "c-render",
            dependencies: ["ICUBaseline"]
        ),
        // Writes the benchmark catalog as CSV, for timing `storeprice render` end to end.
        .executableTarget(
            name: "make-catalog",
            dependencies: ["BenchmarkWorkload", .product(name: "StorePrice", package: "StorePrice")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
