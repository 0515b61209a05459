#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of products, read one at a time: a catalog file being streamed, or products in memory.
public protocol CatalogSource {
    /// The next product, or nil at the end.
    mutating func nextProduct() throws(StorePriceError) -> Product?
    /// How far reading has come: bytes read and, when known, the total.
    var progress: (done: Int, total: Int?) { get }
    /// What the reader left out and a person should know, one line each, such as an offer
    /// without a price in the file's storefront.
    var notes: [String] { get }
}

extension CatalogSource {
    /// No notes.
    public var notes: [String] { [] }
}

/// The catalog file formats StorePrice reads.
public enum CatalogFormat: String, Sendable, CaseIterable {
    /// CSV with the header `product,storefront,price`; each product's rows together.
    case csv
    /// JSON Lines, one product per line:
    /// `{"product":"com.example.level1","prices":{"USA":"0.99"},"title":{"en":"Level 1"}}`.
    case jsonl
    /// An Xcode StoreKit configuration file, whose prices belong to its `_storefront`.
    case storekit
    /// App Store Connect API responses (`.json`), or a folder of them: see
    /// ``AppStoreConnectCatalog``.
    case appStoreConnect = "asc"
    /// Google Play Developer API documents (`.json`) or Play Console CSV exports (`.csv`), or a
    /// folder of them: see ``PlayCatalog``. Never implied by a name: `.json` and `.csv` are the
    /// App Store's formats unless this one is given.
    case play

    /// The format a file name implies: `.csv`, `.jsonl`/`.ndjson`, `.storekit`, `.json` (an App
    /// Store Connect response).
    public init?(path: String) {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".csv") {
            self = .csv
        } else if lowered.hasSuffix(".jsonl") || lowered.hasSuffix(".ndjson") {
            self = .jsonl
        } else if lowered.hasSuffix(".storekit") {
            self = .storekit
        } else if lowered.hasSuffix(".json") {
            self = .appStoreConnect
        } else {
            return nil
        }
    }
}

/// Opens catalog files.
///
/// ```swift
/// var source = try Catalog.open("Data/catalog-sample.jsonl")
/// while let product = try source.nextProduct() { print(product.id) }
/// ```
public enum Catalog {
    /// Opens a catalog file for streaming, in the format its name implies unless one is given.
    ///
    /// - Parameters:
    ///   - path: the file; `-` is standard input (give `format` then); a folder holds App Store
    ///     Connect responses.
    ///   - format: the format, when the name does not say it.
    ///   - rule: which product IDs the catalog may have; App Store Connect's by default.
    ///   - date: for App Store Connect responses, the time whose prices are in effect (in UTC).
    public static func open(
        _ path: String, format: CatalogFormat? = nil, productIDRule rule: ProductIDRule = .appStore, effectiveOn date: Date = Date()
    ) throws(StorePriceError) -> any CatalogSource {
        if format == nil || format == .appStoreConnect, path != "-", kind(of: path) == .folder {
            return try AppStoreConnectCatalog(
                contentsOf: AppStoreConnectCatalog.responseFiles(in: path), effectiveOn: date, productIDRule: rule
            ).products
        }
        guard let format = format ?? CatalogFormat(path: path) else {
            if path != "-", kind(of: path) == nil {
                throw .unreadableFile(path: path, reason: String(cString: strerror(errno)))
            }
            throw .invalidCatalog(
                source: path, line: nil, field: nil,
                reason: "cannot tell the format from the name; name it .csv, .jsonl, .storekit or .json (App Store Connect), "
                    + "or give the format")
        }
        switch format {
        case .csv: return try CSVCatalogReader(path: path, productIDRule: rule)
        case .jsonl: return try JSONLinesCatalogReader(path: path, productIDRule: rule)
        case .storekit:
            let configuration = try StoreKitConfiguration(contentsOfFile: path, productIDRule: rule)
            var products = configuration.products
            products.notes = configuration.notes
            return products
        case .play:
            guard path != "-" else {
                throw .invalidCatalog(
                    source: path, line: nil, field: nil,
                    reason: "Play documents are read from files; give the file or the folder that holds them")
            }
            let files = kind(of: path) == .folder ? try PlayCatalog.documentFiles(in: path) : [path]
            return try PlayCatalog(contentsOf: files, productIDRule: rule).products
        case .appStoreConnect:
            guard path != "-" else {
                throw .invalidCatalog(
                    source: path, line: nil, field: nil,
                    reason: "App Store Connect responses are read from files; give the folder that holds them")
            }
            return try AppStoreConnectCatalog(contentsOf: [path], effectiveOn: date, productIDRule: rule).products
        }
    }

    /// The files of a folder catalog whose names end in one of `suffixes` (in any case), sorted by
    /// name, hidden ones left out; `none` says why a folder without one is no catalog, and
    /// `holding` what its files are.
    static func files(
        in directory: String, endingIn suffixes: [String], none: String, holding: String
    ) throws(StorePriceError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .unreadableFile(path: directory, reason: "not a folder StorePrice can list")
        }
        let files = names.filter { name in
            !name.hasPrefix(".") && suffixes.contains { name.lowercased().hasSuffix($0) }
        }.sorted()
        guard !files.isEmpty else { throw .invalidCatalog(source: directory, line: nil, field: nil, reason: none) }
        let folder = directory.hasSuffix("/") ? directory : directory + "/"
        // A file is a regular file: a FIFO or device would be waited on, not read.
        for name in files where kind(of: folder + name) != .file {
            throw .unreadableFile(path: folder + name, reason: "not a regular file; a folder catalog holds \(holding)")
        }
        return files.map { folder + $0 }
    }

    /// What a path names, symbolic links followed.
    package enum PathKind {
        case file, folder
        /// A FIFO, device or socket: read from, it could wait or never end.
        case other
    }

    /// What `path` names, or nil when nothing is there (with `errno` saying why).
    package static func kind(of path: String) -> PathKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// Reads a whole catalog file into memory; the parameters are as for
    /// ``open(_:format:productIDRule:effectiveOn:)``.
    public static func load(
        _ path: String, format: CatalogFormat? = nil, productIDRule rule: ProductIDRule = .appStore, effectiveOn date: Date = Date()
    ) throws(StorePriceError) -> [Product] {
        var source = try open(path, format: format, productIDRule: rule, effectiveOn: date)
        var products: [Product] = []
        while let product = try source.nextProduct() { products.append(product) }
        return products
    }
}

/// Products already in memory, as a ``CatalogSource``.
///
/// A product ID may appear once, as in a catalog file: reading a repeated one is an error naming
/// both places, `products[3]` and `products[0]`.
public struct ProductList: CatalogSource, Sendable {
    /// The products, in order.
    public let products: [Product]
    private var index = 0
    /// Where each product ID read so far was.
    private var seen = ProductRegistry()
    /// What the file these products came from left out, one line each.
    public var notes: [String] = []

    /// Which product IDs the list may give.
    public let productIDRule: ProductIDRule

    /// The products, in order; each ID is checked against `rule` as it is read.
    public init(_ products: [Product], productIDRule rule: ProductIDRule = .appStore) {
        self.products = products
        self.productIDRule = rule
        seen.reserveCapacity(products.count)
    }

    public mutating func nextProduct() throws(StorePriceError) -> Product? {
        guard index < products.count else { return nil }
        defer { index += 1 }
        try check(index)
        return products[index]
    }

    /// The next products, up to `count`, sharing the list's storage: those before the first
    /// whose ID is refused, and that refusal. Bulk runs read products in memory this way.
    mutating func nextProducts(upTo count: Int) -> (products: ArraySlice<Product>, failure: StorePriceError?) {
        let start = index
        let end = min(products.count, start + max(0, count))
        while index < end {
            do throws(StorePriceError) {
                try check(index)
            } catch {
                defer { index += 1 }
                return (products[start..<index], error)
            }
            index += 1
        }
        return (products[start..<end], nil)
    }

    /// Refuses product `position` when the rule refuses its ID or an earlier product has it.
    private mutating func check(_ position: Int) throws(StorePriceError) {
        let id = products[position].id
        if let problem = productIDRule.problem(with: id) {
            throw .invalidCatalog(source: "products in memory", line: nil, field: "products[\(position)]", reason: problem)
        }
        if let first = seen.insert(id, line: position) {
            throw .invalidCatalog(
                source: "products in memory", line: nil, field: "products[\(position)]",
                reason: "product '\(id.escapedForMessage)' again; products[\(first)] has it")
        }
    }

    public var progress: (done: Int, total: Int?) { (index, products.count) }
}

/// Remembers each product ID and refuses one seen before, or one the rule does not allow.
struct ProductIDRegistry {
    private var firstLines = ProductRegistry()
    let rule: ProductIDRule

    init(rule: ProductIDRule) {
        self.rule = rule
    }

    mutating func register(_ id: String, line: Int, source: String, hint: String = "") throws(StorePriceError) {
        if let problem = rule.problem(with: id) {
            throw .invalidCatalog(source: source, line: line, field: "product", reason: problem)
        }
        if let first = firstLines.insert(id, line: line) {
            throw .invalidCatalog(
                source: source, line: line, field: nil,
                reason: "product '\(id.escapedForMessage)' again; line \(first) has it\(hint)")
        }
    }
}

/// Storefront lookups by the codes a catalog uses, cached.
struct StorefrontCodes {
    private var cache: [String: Storefront] = [:]
    private var keys: [String: Key] = [:]

    /// What a price needs of its storefront, cheap to copy: a ``Storefront`` holds a dozen
    /// references, each retained and released with a copy.
    struct Key {
        let numericID: Int
        let countryCode: String
        let currency: CurrencyCode
        /// ``countryCode`` packed by ``PackedAmount/pack(_:)``.
        var packedCountryCode: UInt64 { PackedAmount.pack(countryCode) }
    }
    private var packedKeys: [UInt64: Key] = [:]

    /// The storefront of a code packed by ``PackedAmount/pack(_:)``, or nil for a code no
    /// storefront has.
    mutating func key(packed code: UInt64) -> Key? {
        if let known = packedKeys[code] { return known }
        guard let key = key(PackedAmount.unpack(code)) else { return nil }
        if packedKeys.count < 4096 { packedKeys[code] = key }
        return key
    }

    /// The storefront of a code as a ``Key``, or nil for a code no storefront has.
    mutating func key(_ code: String) -> Key? {
        // ASCII codes only, as for `storefront(_:source:line:field:)`.
        if code.utf8.allSatisfy({ $0 < 0x80 }), let known = keys[code] { return known }
        guard let storefront = try? Storefront(code) else { return nil }
        let key = Key(numericID: storefront.numericID, countryCode: storefront.countryCode, currency: storefront.currency)
        if keys.count < 4096, code.utf8.allSatisfy({ $0 < 0x80 }) { keys[code] = key }
        return key
    }

    mutating func storefront(_ code: String, source: String, line: Int?, field: String) throws(StorePriceError)
        -> Storefront
    {
        // Only ASCII codes are cached: Swift compares strings by canonical equivalence, under which
        // the Kelvin sign (U+212A) equals 'K', and a cached KOR would answer for "\u{212A}OR".
        if code.utf8.allSatisfy({ $0 < 0x80 }), let known = cache[code] { return known }
        do {
            let storefront = try Storefront(code)
            if cache.count < 4096 { cache[code] = storefront }
            return storefront
        } catch {
            throw .invalidCatalog(source: source, line: line, field: field, reason: error.description)
        }
    }
}

/// Amounts as written, packed, to their canonical text packed (``Price/amount``): `"2.00"` to
/// `"2"`. An amount is checked once per catalog, not once per price.
struct PackedAmountCache {
    private var cache: [UInt64: UInt64] = [:]

    /// The canonical amount of a packed one, packed; nil for text that is no amount, or whose
    /// canonical text is longer than 8 bytes (it never is: canonical text is never longer).
    mutating func canonical(_ written: UInt64) -> UInt64? {
        if let known = cache[written] { return known == 0 ? nil : known }
        var canonical: UInt64 = 0
        if case .success(let parsed) = DecimalText.parse(PackedAmount.unpack(written)) {
            canonical = PackedAmount.pack(parsed.text)
        }
        if cache.count < 1 << 16 { cache[written] = canonical }
        return canonical == 0 ? nil : canonical
    }
}

/// Price parsing with the results of repeated (currency, text) pairs reused.
struct PriceCache {
    private struct Key: Hashable {
        var currency: String
        var text: String
    }
    private var cache: [Key: Price] = [:]

    /// The price of `text` in `currency`, or nil for text that is no amount.
    mutating func price(_ text: String, currency: CurrencyCode) -> Price? {
        let key = Key(currency: currency.code, text: text)
        if let known = cache[key] { return known }
        guard let price = try? Price(text, currency: currency) else { return nil }
        if cache.count < 1 << 16 { cache[key] = price }
        return price
    }

    mutating func price(_ text: String, in storefront: Storefront, source: String, line: Int?, field: String)
        throws(StorePriceError) -> Price
    {
        let key = Key(currency: storefront.currency.code, text: text)
        if let known = cache[key] { return known }
        do {
            let price = try Price(text, currency: storefront.currency)
            if cache.count < 1 << 16 { cache[key] = price }
            return price
        } catch {
            throw .invalidCatalog(source: source, line: line, field: field, reason: error.description)
        }
    }
}
