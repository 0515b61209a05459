// One libFuzzer binary for every StorePrice parser; FUZZ_TARGET picks which one an input feeds.
//
// Every target checks more than "no crash": what parses must also format or render without
// error, and a refused input must be a StorePriceError whose one-line message is not empty.
import Foundation
import StorePrice

/// The parsers that can be fuzzed, by FUZZ_TARGET name.
enum Target: String, CaseIterable {
    case amount, locale, period, offer, accounts, csv, jsonl, storekit, plist, json, snapshot
}

nonisolated(unsafe) private var target = Target.amount
nonisolated(unsafe) private var scratchPath = ""

@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> Int32 {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let chosen = Target(rawValue: name) else {
        let names = Target.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("set FUZZ_TARGET to one of: \(names)\n".utf8))
        exit(2)
    }
    target = chosen
    scratchPath = NSTemporaryDirectory() + "storeprice-fuzz-\(getpid())"
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        try run(target, bytes)
    } catch {
        // A refusal is fine; a refusal without a message is a bug.
        precondition(!error.description.isEmpty, "empty error message")
        precondition(!error.description.contains("\n"), "a multi-line error message: \(error.description)")
    }
    return 0
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// Writes the input to a scratch file, for the readers that take a path.
private func file(_ bytes: [UInt8], suffix: String) -> String {
    let path = scratchPath + suffix
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    return path
}

private func run(_ target: Target, _ bytes: [UInt8]) throws(StorePriceError) {
    switch target {
    case .amount:
        // Line 1: the amount; an optional line 2: a currency code.
        let lines = text(bytes).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let code = lines.count > 1 ? String(lines[1].prefix(3)) : "USD"
        let currency = try CurrencyCode(code)
        let price = try Price(String(lines[0]), currency: currency)
        let locale = try PriceLocale(language: "en", region: "US", currency: currency)
        for rounding in PriceFormatter.Rounding.allCases {
            _ = try? PriceFormatter(locale: locale, options: .init(rounding: rounding)).format(price)
        }
        _ = try? price.approximately(per: SubscriptionPeriod("P1M"), billedEvery: SubscriptionPeriod("P1Y"))
    case .locale:
        let locale = try PriceLocale(text(bytes))
        let formatter = try PriceFormatter(locale: locale, options: .init(rounding: .halfEven))
        let formatted = try formatter.format(amount: "1234.5")
        precondition(!formatted.isEmpty)
        _ = try formatter.format(amount: "9.99", per: SubscriptionPeriod("P1M"))
    case .period:
        let period = try SubscriptionPeriod(text(bytes))
        let again = try SubscriptionPeriod(period.iso8601)
        precondition(again == period, "\(period) does not round-trip")
        _ = try period.text(in: PriceLocale("ja_JP@currency=JPY"))
    case .offer:
        let offer = try SubscriptionOffer(terms: text(bytes), price: Price("0.99", currency: CurrencyCode("USD")))
        _ = try offer.text(in: PriceLocale("en_US@currency=USD"))
    case .accounts:
        let accounts = try TestAccountFile(data: Data(bytes), source: "fuzz")
        for account in accounts.accounts { _ = try PriceFormatter(locale: account.priceLocale).format(amount: "1") }
    case .csv:
        try render(file(bytes, suffix: ".csv"))
    case .jsonl:
        try render(file(bytes, suffix: ".jsonl"))
    case .storekit:
        var products = try StoreKitConfiguration(data: bytes, source: "fuzz").products
        try render(&products)
    case .plist:
        _ = try ProductIDList(data: bytes, source: "fuzz.plist")
    case .json:
        _ = try ProductIDList(data: bytes, source: "fuzz.json")
    case .snapshot:
        let snapshot = try PriceSnapshot(contentsOfFile: file(bytes, suffix: ".snapshot.jsonl"))
        let diff = snapshot.difference(from: snapshot)
        precondition(diff.isEmpty, "a snapshot differs from itself")
        _ = diff.htmlReport()
    }
}

private func render(_ path: String) throws(StorePriceError) {
    var source = try Catalog.open(path)
    try render(&source)
}

private func render(_ source: inout some CatalogSource) throws(StorePriceError) {
    let renderer = CatalogRenderer(
        targets: RenderTarget.storefronts([try Storefront("USA"), try Storefront("JPN"), try Storefront("SAU")]),
        options: .init(rounding: .halfEven), workers: 1)
    do {
        _ = try renderer.render(&source) { batch in
            for position in batch.indices {
                precondition(!batch.formatted(at: position).isEmpty)
                _ = try batch.subscriptionText(at: position, options: .init(rounding: .halfEven))
            }
        }
    } catch let error as StorePriceError {
        throw error
    } catch {
        preconditionFailure("render threw a non-StorePrice error: \(error)")
    }
}

// SwiftPM links an executable's entry point as `<module>_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

@_cdecl("storeprice_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, testOneInput)
}
