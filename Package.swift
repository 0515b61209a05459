// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StorePrice",
    // Swift's Synchronization module (Atomic, in CatalogRenderer's price store) needs macOS 15.
    // Only the platforms StorePrice builds on: it links the system ICU found with pkg-config
    // (libicu-dev on Linux, Homebrew's icu4c on macOS), which iOS, tvOS, watchOS and visionOS lack.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StorePrice", targets: ["StorePrice"]),
        .library(name: "StorePriceTesting", targets: ["StorePriceTesting"]),
        .executable(name: "storeprice", targets: ["storeprice"]),
    ],
    // The trait CLI: the storeprice command and what only it needs (swift-argument-parser, and
    // swift-crypto and AsyncHTTPClient for the stores' APIs). On by default, so that `swift run
    // storeprice` and `swift test` work in a clone; a package that imports the library turns it
    // off, `.package(url: …, from: "0.1.0", traits: [])`, and resolves swift-log alone.
    traits: [
        .trait(
            name: "CLI",
            description: "The storeprice command, with its App Store Connect client: swift-argument-parser, swift-crypto and AsyncHTTPClient."
        ),
        .default(enabledTraits: ["CLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // `swift package generate-documentation`: the DocC catalogs, checked in CI.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `storeprice asc pull`: App Store Connect's ES256 token, and its HTTP client; the CLI's
        // alone, under its trait.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The stand-in for App Store Connect, on 127.0.0.1 (asc-stand-in, and the tests').
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // The system ICU, found with pkg-config: include paths and libraries, and no declarations.
        .systemLibrary(
            name: "CICUSystem",
            pkgConfig: "icu-i18n",
            providers: [.apt(["libicu-dev"]), .brew(["icu4c"])]
        ),
        // ICU as StorePrice calls it, in plain C types: no ICU type reaches Swift, so it never
        // meets the copy of ICU's headers that Foundation carries.
        .target(
            name: "CICU",
            dependencies: ["CICUSystem"]
        ),
        .target(
            name: "ICUNumberFormat",
            dependencies: ["CICU"]
        ),
        .target(
            name: "StorePrice",
            dependencies: [
                "ICUNumberFormat",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "StorePriceTesting",
            dependencies: ["StorePrice"]
        ),
        .executableTarget(
            name: "storeprice",
            dependencies: [
                "StorePrice",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["CLI"])),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(traits: ["CLI"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["CLI"])),
            ]
        ),
        // Stand-ins for the App Store Connect API and the Google Play Developer API on this
        // machine: the tests' servers, and `swift run asc-stand-in FOLDER` and `swift run
        // play-stand-in FOLDER`, to try `asc pull` and `play pull` without an account.
        .target(
            name: "StandIns",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["CLI"])),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(traits: ["CLI"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["CLI"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["CLI"])),
            ]
        ),
        .executableTarget(
            name: "asc-stand-in",
            dependencies: [
                "StandIns",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["CLI"])),
            ]
        ),
        .executableTarget(
            name: "play-stand-in",
            dependencies: [
                "StandIns",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
            ]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["StorePrice"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "ICUNumberFormatTests",
            dependencies: ["ICUNumberFormat", "TestSupport"]
        ),
        .testTarget(
            name: "StorePriceTests",
            dependencies: ["StorePrice", "ICUNumberFormat", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "StorePriceTestingTests",
            dependencies: ["StorePriceTesting", "TestSupport"]
        ),
        .testTarget(
            name: "storepriceTests",
            dependencies: [
                "storeprice", "TestSupport", "StandIns",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["CLI"])),
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(traits: ["CLI"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ])
    target.swiftSettings = settings
}
