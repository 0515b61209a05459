#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import Logging

/// A golden record of how a catalog's prices render for a set of test accounts, kept in the
/// repository so that any change in a price string (an ICU or CLDR upgrade, an edited catalog, a
/// storefront switching currency) shows up in review and fails CI.
///
/// On disk a snapshot is JSON Lines: a header line naming the StorePrice, ICU and CLDR versions,
/// the catalog and accounts it was made from and the formatting options, then one row per product
/// and account, sorted by product ID and then account name:
///
/// ```json
/// {"storeprice_snapshot":1,"storeprice":"0.1.0","icu":"72.1","cldr":"42.0","catalog":"../catalog-sample.jsonl","catalog_format":null,"accounts":null,"display":"symbol","rounding":"reject","rows":5581}
/// {"product":"com.example.level1","account":"jpn","storefront":"JPN","price_locale":"ja_JP@currency=JPY","amount":"160","formatted":"￥160","escaped":"\\u{FFE5}160"}
/// ```
///
/// A snapshot made in the App Store style says so in its header (`"style":"app-store"`), and is
/// verified in that style; the header has no `style` for ICU's.
///
/// `formatted` holds the exact UTF-8 that ICU produced; `escaped` repeats it with every non-ASCII
/// character written `\u{XXXX}`, so that a no-break space shows in a diff. Paths in the header
/// are relative to the snapshot file's directory; `accounts` is null for the built-in accounts.
///
/// Every other string `render` shows for the row is in `strings`, each with its field and its
/// escaped copy: the title, and for a subscription its period, price per period, each offer's
/// terms, price and text, and each billing plan's prices:
///
/// ```json
/// {"product":"com.example.pro.monthly",…,"formatted":"$4.99","escaped":"$4.99","strings":[
///  {"field":"title","text":"Pro Monthly","escaped":"Pro Monthly"},
///  {"field":"price_per_period","text":"$4.99 per month","escaped":"$4.99 per month"},
///  {"field":"offers[promotional:com.example.pro.winback].text","text":"$1.99 for 2 months",…}]}
/// ```
///
/// Format 1 snapshots, which record only prices, still verify: their prices are compared, and the
/// summary says to record them again to compare the other strings.
///
/// ```swift
/// let snapshot = try PriceSnapshot.record(catalog: "Data/catalog-sample.jsonl")
/// try snapshot.write(to: "Data/golden/catalog-sample.built-in.jsonl")
///
/// let diff = try PriceSnapshot.verify(goldenAt: "Data/golden/catalog-sample.built-in.jsonl")
/// if !diff.isEmpty { print(diff) }
/// ```
public struct PriceSnapshot: Hashable, Sendable {
    /// The newest snapshot file format, written in the header: 3 names a style other than ICU's
    /// and the version of the App Store rules; 2 records every string a row shows, in ICU's style,
    /// and is still written for it; 1 recorded only prices, and is still read. A StorePrice that
    /// reads only formats 1 and 2 refuses a format 3 file rather than verify it in ICU's style.
    public static let formatVersion = 3

    /// The format version of the file this snapshot was read from, or ``formatVersion`` for one
    /// made now.
    public private(set) var fileFormatVersion = PriceSnapshot.formatVersion

    /// Why the header's catalog and accounts paths may not be read, by field, for a snapshot read
    /// from a file (see `SnapshotPath.problem(with:inSnapshotAt:field:)`).
    private var refusedHeaderPaths: [String: String] = [:]

    /// A string a row shows besides its price, such as its price per period.
    public struct Field: Hashable, Sendable {
        /// The field, named as render's JSON Lines output names it: `title`, `price_per_period`,
        /// `offers[promotional:winback].text`, `billing_plans[MONTHLY].formatted_price`.
        public var name: String
        /// The text, exactly as rendered.
        public var text: String

        /// A field and its text.
        public init(name: String, text: String) {
            self.name = name
            self.text = text
        }

        /// The text with non-ASCII characters written `\u{XXXX}`.
        public var escaped: String { UnicodeEscaping.escapeNonASCII(text) }

        /// Fields are equal when their UTF-8 bytes are: `Kč` precomposed and `Kc\u{030C}` differ,
        /// though Swift's `String` calls them equal.
        public static func == (lhs: Field, rhs: Field) -> Bool {
            lhs.name.utf8.elementsEqual(rhs.name.utf8) && lhs.text.utf8.elementsEqual(rhs.text.utf8)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combineUTF8(name)
            hasher.combineUTF8(text)
        }
    }

    /// One product's price as one test account sees it.
    public struct Row: Hashable, Sendable {
        /// The product ID.
        public var product: String
        /// The test account's name.
        public var account: String
        /// The account's storefront, as an alpha-3 code.
        public var storefront: String
        /// The price locale's identifier, such as `ja_JP@currency=JPY`.
        public var priceLocale: String
        /// The amount as canonical decimal text.
        public var amount: String
        /// The formatted price, exactly as ICU produced it.
        public var formatted: String
        /// Every other string the row shows, in the order render writes them.
        public var strings: [Field]

        /// A row, as rendered or as read from a snapshot.
        public init(
            product: String, account: String, storefront: String, priceLocale: String, amount: String,
            formatted: String, strings: [Field] = []
        ) {
            self.product = product
            self.account = account
            self.storefront = storefront
            self.priceLocale = priceLocale
            self.amount = amount
            self.formatted = formatted
            self.strings = strings
        }

        /// The formatted price with non-ASCII characters written `\u{XXXX}`.
        public var escaped: String { UnicodeEscaping.escapeNonASCII(formatted) }

        /// Rows are equal when every field's UTF-8 bytes are: a byte that changes is a change,
        /// though Swift's `String` calls canonically equivalent text equal.
        public static func == (lhs: Row, rhs: Row) -> Bool {
            lhs.product.utf8.elementsEqual(rhs.product.utf8) && lhs.account.utf8.elementsEqual(rhs.account.utf8)
                && lhs.storefront.utf8.elementsEqual(rhs.storefront.utf8)
                && lhs.priceLocale.utf8.elementsEqual(rhs.priceLocale.utf8)
                && lhs.amount.utf8.elementsEqual(rhs.amount.utf8)
                && lhs.formatted.utf8.elementsEqual(rhs.formatted.utf8) && lhs.strings == rhs.strings
        }

        public func hash(into hasher: inout Hasher) {
            for text in [product, account, storefront, priceLocale, amount, formatted] { hasher.combineUTF8(text) }
            hasher.combine(strings)
        }

        /// Whether this row sorts before another: by product ID, then account name, comparing
        /// UTF-8 bytes so that the order is the same on every machine.
        func sortsBefore(_ other: Row) -> Bool {
            // Bytes, as verify checks the order: String's `!=` calls two spellings of é equal.
            if !product.utf8.elementsEqual(other.product.utf8) { return product.utf8.lexicographicallyPrecedes(other.product.utf8) }
            return account.utf8.lexicographicallyPrecedes(other.account.utf8)
        }

        func hasSameKey(as other: Row) -> Bool {
            product.utf8.elementsEqual(other.product.utf8) && account.utf8.elementsEqual(other.account.utf8)
        }

        /// The row's product and account as UTF-8 bytes: what tells one row from another in
        /// reports, where two spellings of one text are two products.
        struct Key: Hashable {
            var product: [UInt8]
            var account: [UInt8]

            init(product: [UInt8], account: [UInt8]) {
                self.product = product
                self.account = account
            }

            init(_ row: Row) {
                self.init(product: Array(row.product.utf8), account: Array(row.account.utf8))
            }
        }
    }

    /// The software that produced a snapshot's strings.
    public struct Producer: Hashable, Sendable, CustomStringConvertible {
        /// The StorePrice version.
        public var storePrice: String
        /// The ICU version, such as `72.1`.
        public var icu: String
        /// The CLDR version, such as `42.0`.
        public var cldr: String

        /// The version of the App Store style's rules (``AppStoreRule/rulesVersion``), for a
        /// snapshot in that style; nil for ICU's style.
        public var appStoreRules: String?

        /// The versions, as a snapshot header records them.
        public init(storePrice: String, icu: String, cldr: String, appStoreRules: String? = nil) {
            self.storePrice = storePrice
            self.icu = icu
            self.cldr = cldr
            self.appStoreRules = appStoreRules
        }

        /// This process: this StorePrice and the ICU it is linked with.
        public static var current: Producer {
            Producer(storePrice: VersionInfo.current, icu: VersionInfo.icu, cldr: VersionInfo.cldr)
        }

        /// `ICU 72.1/CLDR 42.0`, and `and App Store rules 2026-11-27` in that style.
        public var description: String {
            "ICU \(icu.escapedForMessage)/CLDR \(cldr.escapedForMessage)"
                + (appStoreRules.map { " and App Store rules \($0.escapedForMessage)" } ?? "")
        }
    }

    /// What a snapshot renders: the catalog, the accounts and the formatting options.
    public struct Source: Hashable, Sendable {
        /// The catalog file, as a path from the current directory; nil when it was read from
        /// standard input.
        public var catalog: String?
        /// The catalog's format, when its name does not tell it.
        public var catalogFormat: CatalogFormat?
        /// For App Store Connect responses, the day whose prices were rendered (`YYYY-MM-DD`, UTC):
        /// a snapshot verifies against the same day's prices, whatever day it is verified on.
        public var catalogDay: String?
        /// The accounts file, as a path from the current directory; nil for the built-in accounts.
        public var accounts: String?
        /// The formatting options every price was rendered with.
        public var options: PriceFormatter.Options
        /// Which product IDs the catalog may have.
        public var productIDRule: ProductIDRule

        /// What to render and how.
        public init(
            catalog: String?, catalogFormat: CatalogFormat? = nil, accounts: String? = nil,
            options: PriceFormatter.Options = .init(), productIDRule: ProductIDRule = .appStore, catalogDay: String? = nil
        ) {
            self.catalog = catalog
            self.catalogFormat = catalogFormat
            self.catalogDay = catalogDay
            self.accounts = accounts
            self.options = options
            self.productIDRule = productIDRule
        }
    }

    /// The versions that produced the strings.
    public var producer: Producer
    /// What was rendered.
    public var source: Source
    /// The rows, sorted by product ID and then account name, one per product and account.
    public private(set) var rows: [Row]

    /// A snapshot of the given rows, which are sorted here.
    ///
    /// - Throws: ``StorePriceError/invalidSnapshot(source:line:reason:)`` when two rows have the
    ///   same product and account.
    public init(producer: Producer = .current, source: Source, rows: [Row]) throws(StorePriceError) {
        // Play's style belongs to Play's prices, the App Store's to the App Store's.
        if let reason = Self.styleProblem(source.options.style, catalogFormat: source.catalogFormat) {
            throw .invalidSnapshot(source: source.catalog ?? "snapshot", line: nil, reason: reason)
        }
        var producer = producer
        // In the App Store style, the rules are part of what made the strings.
        if source.options.style == .appStore, producer.appStoreRules == nil { producer.appStoreRules = AppStoreRule.rulesVersion }
        self.producer = producer
        self.source = source
        self.fileFormatVersion = Self.writtenFormat(source.options)
        self.rows = rows.sorted { $0.sortsBefore($1) }
        for (earlier, later) in zip(self.rows, self.rows.dropFirst()) where earlier.hasSameKey(as: later) {
            throw .invalidSnapshot(
                source: "rows", line: nil,
                reason: "product '\(later.product.escapedForMessage)' appears twice for account '\(later.account.escapedForMessage)'")
        }
    }

    /// Renders a catalog for a set of test accounts.
    ///
    /// Products that have no price in an account's storefront have no row for that account; they
    /// are not errors here, since a storefront that stops selling a product is a change a snapshot
    /// should show.
    ///
    /// - Parameters:
    ///   - catalog: the catalog file (`.csv`, `.jsonl` or `.storekit`).
    ///   - catalogFormat: its format, when the name does not tell it.
    ///   - accounts: a test accounts file; nil for the built-in accounts.
    ///   - options: currency display and rounding.
    ///   - productIDRule: which product IDs the catalog may have; App Store Connect's by default.
    ///   - workers: threads to render on.
    ///   - date: for App Store Connect responses, the time whose prices are rendered; the header
    ///     records its day (UTC), and ``verify(goldenAt:catalog:catalogFormat:accounts:workers:)``
    ///     renders that day again.
    /// - Throws: the catalog's and accounts file's errors, and prices the options cannot show.
    public static func record(
        catalog: String, catalogFormat: CatalogFormat? = nil, accounts: String? = nil,
        options: PriceFormatter.Options = .init(), productIDRule: ProductIDRule = .appStore,
        workers: Int = CatalogRenderer.processorCount, effectiveOn date: Date = Date()
    ) throws(StorePriceError) -> PriceSnapshot {
        // Standard input ("-") cannot be read again: the header records no path, and verify asks for one.
        guard catalog != "-" || accounts != "-" else {
            throw .invalidAccounts(
                source: "-", entry: nil, name: nil,
                reason: "the catalog is already read from standard input; give the accounts file by name")
        }
        let dated = catalogFormat == .appStoreConnect || (catalogFormat == nil && Catalog.kind(of: catalog) == .folder)
            || (catalogFormat == nil && CatalogFormat(path: catalog) == .appStoreConnect)
        let source = Source(
            catalog: catalog == "-" ? nil : catalog, catalogFormat: catalogFormat, accounts: accounts == "-" ? nil : accounts,
            options: options, productIDRule: productIDRule, catalogDay: dated ? CivilTime.day(of: date) : nil)
        var products = try Catalog.open(catalog, format: catalogFormat, productIDRule: productIDRule, effectiveOn: date)
        let accountsFile = try accounts.map { (path) throws(StorePriceError) in try TestAccountFile(contentsOfFile: path) }
            ?? .builtIn
        return try render(&products, accounts: accountsFile, source: source, workers: workers)
    }

    /// Renders products already in memory for a set of test accounts, as ``record(catalog:catalogFormat:accounts:options:productIDRule:workers:effectiveOn:)``
    /// renders a file: a service's tests need no catalog file. The header names no catalog.
    ///
    /// ```swift
    /// let products = [try Product(id: "coins.100", prices: ["USA": "0.99", "JPN": "160"])]
    /// let snapshot = try PriceSnapshot.record(products: products)
    /// snapshot.rows.first { $0.account == "jpn" }?.formatted  // "￥160"
    /// ```
    ///
    /// - Parameters:
    ///   - products: the catalog; a product ID may appear once.
    ///   - accounts: the test accounts; the built-in accounts by default.
    ///   - options: currency display and rounding.
    ///   - productIDRule: which product IDs the catalog may have; App Store Connect's by default.
    ///   - workers: threads to render on.
    /// - Throws: a repeated product ID, and prices the options cannot show.
    public static func record(
        products: [Product], accounts: TestAccountFile = .builtIn, options: PriceFormatter.Options = .init(),
        productIDRule: ProductIDRule = .appStore, workers: Int = CatalogRenderer.processorCount
    ) throws(StorePriceError) -> PriceSnapshot {
        var source = ProductList(products, productIDRule: productIDRule)
        return try render(
            &source, accounts: accounts, source: Source(catalog: nil, options: options, productIDRule: productIDRule),
            workers: workers)
    }

    /// Renders what a ``Source`` names.
    public static func render(_ source: Source, workers: Int = CatalogRenderer.processorCount)
        throws(StorePriceError) -> PriceSnapshot
    {
        guard let catalog = source.catalog else {
            throw .invalidSnapshot(
                source: "source", line: nil, reason: "no catalog path; the snapshot was made from standard input or from products in memory")
        }
        var products = try Catalog.open(
            catalog, format: source.catalogFormat, productIDRule: source.productIDRule,
            effectiveOn: source.catalogDay.flatMap(CivilTime.date(ofDay:)) ?? Date())
        let accounts = try source.accounts.map { (path) throws(StorePriceError) in
            try TestAccountFile(contentsOfFile: path)
        } ?? .builtIn
        return try render(&products, accounts: accounts, source: source, workers: workers)
    }

    /// Why a snapshot of a catalog in `catalogFormat` cannot be in `style`, or nil: the Play style
    /// is for Play catalogs, the App Store style for the App Store's.
    static func styleProblem(_ style: PriceFormatter.Style, catalogFormat: CatalogFormat?) -> String? {
        if style == .play, catalogFormat != .play {
            return "the Play style writes Google Play's prices; a snapshot of App Store storefronts is in ICU's or the App Store style"
        }
        if style == .appStore, catalogFormat == .play {
            return "the App Store style writes the App Store's prices; a snapshot of a Play catalog is in the Play style or ICU's"
        }
        return nil
    }

    /// Renders products from any ``CatalogSource`` for the given accounts; `source` is recorded in
    /// the header as is. A Play catalog (``Source/catalogFormat`` ``CatalogFormat/play``) is
    /// rendered for the built-in Play testers (``PlayTester/account``) instead.
    public static func render(
        _ products: inout some CatalogSource, accounts: TestAccountFile, source: Source,
        workers: Int = CatalogRenderer.processorCount
    ) throws(StorePriceError) -> PriceSnapshot {
        if source.catalogFormat == .play, source.accounts != nil {
            throw .invalidSnapshot(
                source: source.accounts ?? "accounts", line: nil,
                reason: "an accounts file holds App Store test accounts; a Play catalog's snapshot is of the built-in Play testers")
        }
        let targets = source.catalogFormat == .play
            ? RenderTarget.accounts(PlayTester.builtIn.map(\.account)) : RenderTarget.accounts(accounts.accounts)
        let renderer = CatalogRenderer(
            targets: targets, options: source.options, workers: workers,
            logger: Logger(label: "StorePrice.PriceSnapshot", factory: { _ in SwiftLogNoOpLogHandler() }))
        var rows: [Row] = []
        do {
            _ = try renderer.render(&products) { batch in
                for position in batch.indices {
                    let target = batch.target(at: position)
                    rows.append(
                        Row(
                            product: batch.productID(at: position), account: target.account?.name ?? "",
                            storefront: target.storefront.countryCode, priceLocale: target.priceLocale.identifier,
                            amount: batch.amount(at: position), formatted: batch.formatted(at: position),
                            strings: fields(of: batch, at: position)))
                }
            }
        } catch let error as StorePriceError {
            throw error
        } catch {
            throw .invalidSnapshot(source: "render", line: nil, reason: "\(error)")
        }
        return try PriceSnapshot(source: source, rows: rows)
    }
}

extension PriceSnapshot {
    /// The strings a rendered row shows besides its price, named as render's JSON Lines names them.
    static func fields(of batch: RenderedBatch, at position: Int) -> [Field] {
        var fields: [Field] = []
        if let title = batch.title(at: position) { fields.append(Field(name: "title", text: title)) }
        guard let subscription = batch.renderedSubscription(at: position) else { return fields }
        fields.append(Field(name: "period", text: subscription.period.iso8601))
        fields.append(Field(name: "price_per_period", text: subscription.pricePerPeriod))
        var names: Set<String> = []
        func unique(_ name: String) -> String {
            var candidate = name
            var number = 2
            while !names.insert(candidate).inserted {
                candidate = "\(name)#\(number)"
                number += 1
            }
            return candidate
        }
        for offer in subscription.offers {
            let key = unique(
                offer.kind.outputName + (offer.id.map { ":" + $0 } ?? "") + (offer.billingPlan.map { "@" + $0 } ?? ""))
            fields.append(Field(name: "offers[\(key)].terms", text: offer.offer.description))
            if let price = offer.formattedPrice { fields.append(Field(name: "offers[\(key)].formatted_price", text: price)) }
            if let text = offer.text { fields.append(Field(name: "offers[\(key)].text", text: text)) }
        }
        for plan in subscription.billingPlans {
            let key = unique(plan.type)
            fields.append(Field(name: "billing_plans[\(key)].formatted_price", text: plan.formattedPrice))
            if let commitment = plan.formattedCommitmentPrice {
                fields.append(Field(name: "billing_plans[\(key)].formatted_commitment_price", text: commitment))
            }
        }
        for line in subscription.paywall {
            fields.append(Field(name: "paywall.\(line.name)", text: line.text))
        }
        return fields
    }
}

// MARK: - Comparing

extension PriceSnapshot {
    /// Compares this snapshot, made now, with a golden one.
    public func difference(from golden: PriceSnapshot) -> PriceSnapshotDiff {
        PriceSnapshotDiff(golden: golden, current: limited(toFormat: golden.fileFormatVersion))
    }

    /// Loads a golden snapshot, renders what its header names again with this StorePrice and ICU,
    /// and compares.
    ///
    /// - Parameters:
    ///   - path: the golden snapshot file.
    ///   - catalog: a catalog to render instead of the one the header names.
    ///   - catalogFormat: that catalog's format, when its name does not tell it.
    ///   - accounts: an accounts file to use instead of the one the header names.
    ///   - workers: threads to render on.
    /// - Returns: the differences; ``PriceSnapshotDiff/isEmpty`` when every string matches.
    public static func verify(
        goldenAt path: String, catalog: String? = nil, catalogFormat: CatalogFormat? = nil,
        accounts: String? = nil, workers: Int = CatalogRenderer.processorCount
    ) throws(StorePriceError) -> PriceSnapshotDiff {
        let golden = try PriceSnapshot(contentsOfFile: path)
        var source = golden.source
        if let catalog {
            source.catalog = catalog
            source.catalogFormat = catalogFormat
        }
        if let accounts { source.accounts = accounts }
        if source.catalog == nil {
            throw .invalidSnapshot(
                source: path, line: 1, reason: "the snapshot was made from standard input or from products in memory; name the catalog")
        }
        // Paths from the header, not given here, are used only if the header may name them.
        for (field, given) in [("catalog", catalog), ("accounts", accounts)] where given == nil {
            if let problem = golden.refusedHeaderPaths[field] {
                throw .invalidSnapshot(source: path, line: 1, reason: problem)
            }
        }
        do {
            return try render(source, workers: workers).difference(from: golden)
        } catch .unreadableFile(let unread, let reason) where catalog == nil && unread == source.catalog {
            // The path came from the header: say so, and how to name the catalog where it is now.
            throw .invalidSnapshot(
                source: path, line: 1,
                reason: "the header's catalog '\(unread.escapedPathForMessage)' cannot be read (\(reason)); "
                    + "if it moved, name it with --catalog")
        }
    }

    /// This snapshot with only what a snapshot of `version` records: format 1 recorded prices alone.
    func limited(toFormat version: Int) -> PriceSnapshot {
        guard version < 2 else { return self }
        var copy = self
        copy.rows = rows.map { row in
            var row = row
            row.strings = []
            return row
        }
        copy.fileFormatVersion = version
        return copy
    }
}

// MARK: - Reading and writing

extension PriceSnapshot {
    /// The snapshot as JSON Lines, for a file at `path`: catalog and accounts paths are written
    /// relative to that file's directory.
    public func encoded(forFileAt path: String) -> String {
        let directory = SnapshotPath.directory(of: path)
        var header = "{\"storeprice_snapshot\":\(Self.writtenFormat(source.options))"
        header += ",\"storeprice\":" + JSONText.quote(producer.storePrice)
        header += ",\"icu\":" + JSONText.quote(producer.icu)
        header += ",\"cldr\":" + JSONText.quote(producer.cldr)
        header += ",\"catalog\":" + Self.quoteOrNull(source.catalog.map { SnapshotPath.relative($0, from: directory) })
        header += ",\"catalog_format\":" + Self.quoteOrNull(source.catalogFormat?.rawValue)
        // Written only for App Store Connect responses, so that other snapshots keep their bytes.
        if let day = source.catalogDay { header += ",\"catalog_date\":" + JSONText.quote(day) }
        header += ",\"accounts\":" + Self.quoteOrNull(source.accounts.map { SnapshotPath.relative($0, from: directory) })
        header += ",\"display\":" + JSONText.quote(source.options.display.rawValue)
        header += ",\"rounding\":" + JSONText.quote(source.options.rounding.rawValue)
        // Written only when it is not ICU's, so that snapshots of the default style keep their bytes.
        if source.options.style != .icu {
            header += ",\"style\":" + JSONText.quote(source.options.style.rawValue)
        }
        if source.options.style == .appStore {
            header += ",\"app_store_rules\":" + JSONText.quote(producer.appStoreRules ?? AppStoreRule.rulesVersion)
        }
        // Written only for any text, so that snapshots of store product IDs keep their bytes.
        if source.productIDRule != .appStore {
            header += ",\"product_ids\":" + JSONText.quote(source.productIDRule.rawValue)
        }
        header += ",\"rows\":\(rows.count)}\n"
        var text = header
        text.reserveCapacity(header.utf8.count + rows.count * 200)
        for row in rows {
            text += "{\"product\":" + JSONText.quote(row.product)
            text += ",\"account\":" + JSONText.quote(row.account)
            text += ",\"storefront\":" + JSONText.quote(row.storefront)
            text += ",\"price_locale\":" + JSONText.quote(row.priceLocale)
            text += ",\"amount\":" + JSONText.quote(row.amount)
            text += ",\"formatted\":" + JSONText.quote(row.formatted)
            text += ",\"escaped\":" + JSONText.quote(row.escaped)
            if !row.strings.isEmpty {
                text += ",\"strings\":["
                for (index, field) in row.strings.enumerated() {
                    if index > 0 { text += "," }
                    text += "{\"field\":" + JSONText.quote(field.name) + ",\"text\":" + JSONText.quote(field.text)
                        + ",\"escaped\":" + JSONText.quote(field.escaped) + "}"
                }
                text += "]"
            }
            text += "}\n"
        }
        return text
    }

    /// The format a snapshot made with `options` is written in: ICU's style keeps format 2, so
    /// that its snapshots keep their bytes; another style is format 3.
    static func writtenFormat(_ options: PriceFormatter.Options) -> Int {
        options.style == .icu ? 2 : formatVersion
    }

    /// Writes the snapshot to a file, replacing it only once every byte is written, and makes
    /// the file's missing parent folders first, so that a new package records its first golden.
    ///
    /// - Throws: ``StorePriceError/unwritableFile(path:reason:)``; the old file is then untouched.
    public func write(to path: String) throws(StorePriceError) {
        let directory = SnapshotPath.directory(of: path)
        if !directory.isEmpty, path != "-" { try OutputFile.makeFolders(directory, for: path) }
        try OutputFile.write(encoded(forFileAt: path), to: path)
    }

    /// Reads a snapshot file.
    ///
    /// The file is checked whole: the header's format version and row count, every row's fields,
    /// the order of rows, and that each `escaped` copy matches its `formatted` string, so that an
    /// edit to one but not the other is caught.
    ///
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)``, or
    ///   ``StorePriceError/invalidSnapshot(source:line:reason:)`` naming the line.
    public init(contentsOfFile path: String) throws(StorePriceError) {
        let lines = try LineReader(path: path)
        let decoder = JSONDecoder()
        let directory = SnapshotPath.directory(of: path)
        func fail(_ reason: String, line: Int? = nil) -> StorePriceError {
            .invalidSnapshot(source: path, line: line ?? lines.lineNumber, reason: reason)
        }
        func nextLine() throws(StorePriceError) -> String? {
            do {
                return try lines.nextLine()
            } catch .invalidCatalog(_, let line, _, let reason) {
                throw .invalidSnapshot(source: path, line: line, reason: reason)
            }
        }

        guard let headerLine = try nextLine() else {
            throw .invalidSnapshot(source: path, line: nil, reason: "empty file; expected a snapshot header")
        }
        if let problem = JSONText.unpairedSurrogateProblem(in: headerLine) {
            throw fail(problem)
        }
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: Data(headerLine.utf8))
        } catch {
            throw fail("not a StorePrice snapshot header (\(Self.reason(error)))")
        }
        if let repeated = JSONDuplicateKeys.firstRepeatedKey(in: headerLine) {
            throw fail(JSONDuplicateKeys.reason(naming: repeated))
        }
        guard (1...Self.formatVersion).contains(header.storeprice_snapshot) else {
            throw fail(
                "snapshot format \(header.storeprice_snapshot); this StorePrice reads formats 1 to \(Self.formatVersion); "
                    + "record it again with 'storeprice snapshot' (or STOREPRICE_RECORD=all swift test)")
        }
        fileFormatVersion = header.storeprice_snapshot
        guard let display = PriceFormatter.CurrencyDisplay(rawValue: header.display) else {
            throw fail("unknown display '\(header.display.escapedForMessage)'")
        }
        guard let rounding = PriceFormatter.Rounding(rawValue: header.rounding) else {
            throw fail("unknown rounding '\(header.rounding.escapedForMessage)'")
        }
        guard let style = PriceFormatter.Style(rawValue: header.style ?? PriceFormatter.Style.icu.rawValue) else {
            let names = PriceFormatter.Style.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail("unknown style '\((header.style ?? "").escapedForMessage)'; expected one of \(names)")
        }
        if let reason = Self.styleProblem(style, catalogFormat: header.catalog_format.flatMap(CatalogFormat.init(rawValue:))) {
            throw fail(reason)
        }
        if header.style != nil || header.app_store_rules != nil, header.storeprice_snapshot < 3 {
            throw fail("the header says format \(header.storeprice_snapshot), which has no style; a style is format 3")
        }
        if style == .appStore {
            guard header.app_store_rules != nil else { throw fail("the App Store style needs 'app_store_rules', the rules' version") }
            guard display == .symbol else {
                throw fail("display '\(display.rawValue)' goes with the ICU style; the App Store style writes the currency as Apple does")
            }
        } else if header.app_store_rules != nil {
            throw fail("'app_store_rules' goes with the App Store style")
        } else if style == .play, display != .symbol {
            throw fail("display '\(display.rawValue)' goes with the ICU style; the Play style writes the currency as Google Play does")
        }
        guard let productIDRule = ProductIDRule(rawValue: header.product_ids ?? ProductIDRule.appStore.rawValue) else {
            throw fail("unknown product_ids '\((header.product_ids ?? "").escapedForMessage)'; expected appStore or any")
        }
        var catalogFormat: CatalogFormat?
        if let name = header.catalog_format {
            guard let format = CatalogFormat(rawValue: name) else { throw fail("unknown catalog format '\(name.escapedForMessage)'") }
            catalogFormat = format
        }
        if let day = header.catalog_date, !CivilTime.isDay(day) {
            throw fail("catalog_date '\(day.escapedForMessage)' is not a day written YYYY-MM-DD")
        }
        producer = Producer(
            storePrice: header.storeprice, icu: header.icu, cldr: header.cldr, appStoreRules: header.app_store_rules)
        for (field, stored) in [("catalog", header.catalog), ("accounts", header.accounts)] {
            let folderAllowed = field == "catalog" && (catalogFormat == nil || catalogFormat == .appStoreConnect || catalogFormat == .play)
            if let stored, let problem = SnapshotPath.problem(with: stored, inSnapshotAt: path, field: field, folderAllowed: folderAllowed) {
                refusedHeaderPaths[field] = problem
            }
        }
        // App Store Connect's prices are dated: without its day, a golden would be verified
        // against today's prices, and every price changed since would look like a change.
        if header.catalog_date == nil, let catalog = header.catalog, refusedHeaderPaths["catalog"] == nil {
            let named = catalogFormat ?? (Catalog.kind(of: SnapshotPath.openable(catalog, from: directory)) == .folder
                ? .appStoreConnect : CatalogFormat(path: catalog))
            if named == .appStoreConnect {
                throw fail(
                    "the header has no catalog_date, the day whose App Store Connect prices were recorded; "
                        + "record the snapshot again (storeprice snapshot) rather than verify it against today's prices")
            }
        }
        source = Source(
            catalog: header.catalog.map { SnapshotPath.openable($0, from: directory) }, catalogFormat: catalogFormat,
            accounts: header.accounts.map { SnapshotPath.openable($0, from: directory) },
            options: PriceFormatter.Options(display: display, rounding: rounding, style: style),
            productIDRule: productIDRule, catalogDay: header.catalog_date)

        guard header.rows >= 0 else { throw fail("the header counts \(header.rows) rows") }
        var rows: [Row] = []
        // The count is checked against the rows read, at the end; it only hints the size here, so
        // a header claiming a trillion rows allocates nothing for them.
        rows.reserveCapacity(min(header.rows, 1 << 16))
        while let text = try nextLine() {
            if let problem = JSONText.unpairedSurrogateProblem(in: text) {
                throw fail(problem)
            }
            let stored: StoredRow
            do {
                stored = try decoder.decode(StoredRow.self, from: Data(text.utf8))
            } catch {
                throw fail("not a snapshot row (\(Self.reason(error)))")
            }
            if let repeated = JSONDuplicateKeys.firstRepeatedKey(in: text) {
                throw fail(JSONDuplicateKeys.reason(naming: repeated))
            }
            if fileFormatVersion < 2, stored.strings != nil {
                throw fail("the header says format \(fileFormatVersion), whose rows record prices only, but this row has 'strings'")
            }
            let row = Row(
                product: stored.product, account: stored.account, storefront: stored.storefront,
                priceLocale: stored.price_locale, amount: stored.amount, formatted: stored.formatted,
                strings: (stored.strings ?? []).map { Field(name: $0.field, text: $0.text) })
            guard row.escaped.utf8.elementsEqual(stored.escaped.utf8) else {
                throw fail(
                    "'escaped' is \"\(stored.escaped.escapedForMessage)\" but 'formatted' escapes to \"\(row.escaped.escapedForMessage)\"; "
                        + "edit both, or record the snapshot again")
            }
            var names: Set<[UInt8]> = []
            for field in row.strings where !names.insert(Array(field.name.utf8)).inserted {
                throw fail("field '\(field.name.escapedForMessage)' appears twice in this row; record the snapshot again")
            }
            for (field, storedField) in zip(row.strings, stored.strings ?? [])
            where !field.escaped.utf8.elementsEqual(storedField.escaped.utf8) {
                throw fail(
                    "field '\(field.name.escapedForMessage)': 'escaped' is \"\(storedField.escaped.escapedForMessage)\" but 'text' escapes to "
                        + "\"\(field.escaped.escapedForMessage)\"; edit both, or record the snapshot again")
            }
            if let previous = rows.last {
                if previous.hasSameKey(as: row) {
                    throw fail("product '\(row.product.escapedForMessage)' appears twice for account '\(row.account.escapedForMessage)'")
                }
                guard previous.sortsBefore(row) else {
                    throw fail("rows are out of order; they are sorted by product, then account")
                }
            }
            rows.append(row)
        }
        guard rows.count == header.rows else {
            throw fail("the header counts \(header.rows) rows but the file has \(rows.count); is it cut short?", line: 1)
        }
        self.rows = rows
    }

    private struct Header: Decodable {
        var storeprice_snapshot: Int
        var storeprice: String
        var icu: String
        var cldr: String
        var catalog: String?
        var catalog_format: String?
        var catalog_date: String?
        var accounts: String?
        var display: String
        var rounding: String
        var style: String?
        var app_store_rules: String?
        var product_ids: String?
        var rows: Int
    }

    private struct StoredRow: Decodable {
        struct StoredField: Decodable {
            var field: String
            var text: String
            var escaped: String
        }
        var product: String
        var account: String
        var storefront: String
        var price_locale: String
        var amount: String
        var formatted: String
        var escaped: String
        var strings: [StoredField]?
    }

    private static func quoteOrNull(_ text: String?) -> String {
        text.map(JSONText.quote) ?? "null"
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "missing field '\(key.stringValue.escapedForMessage)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "field '\(field.escapedForMessage)' has the wrong type"
        case DecodingError.dataCorrupted:
            return "not valid JSON"
        default:
            return "\(error)"
        }
    }
}

/// Paths as a snapshot stores them: relative to the snapshot file's directory.
enum SnapshotPath {
    /// The directory part of a path, without the trailing slash; empty for a bare name.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// A path stored in a snapshot, as the path to open: the file it leads to now, symbolic links
    /// resolved, so that a link changed after the header's paths were checked is not followed
    /// again; never `-`, which would be standard input.
    static func openable(_ stored: String, from directory: String) -> String {
        let resolved = resolve(stored, from: directory)
        if let real = realPath(resolved) { return real }
        return resolved.hasPrefix("/") ? resolved : "./" + resolved
    }

    /// A path stored in a snapshot, as a path from the current directory.
    static func resolve(_ stored: String, from directory: String) -> String {
        if stored.hasPrefix("/") || directory.isEmpty { return stored }
        return normalized(directory + "/" + stored)
    }

    /// `path` (from the current directory) as a path from `directory` (also from the current
    /// directory).
    static func relative(_ path: String, from directory: String) -> String {
        let target = parts(absolute(path))
        let base = parts(absolute(directory.isEmpty ? "." : directory))
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        let rest = ups + target[common...]
        return rest.isEmpty ? "." : rest.joined(separator: "/")
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `a/b/../c` as `a/c`, keeping leading `..` of a relative path.
    static func normalized(_ path: String) -> String {
        let joined = parts(path).joined(separator: "/")
        return path.hasPrefix("/") ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// A path's names with `.` dropped and `..` applied; a relative path keeps its leading `..`.
    private static func parts(_ path: String) -> [String] {
        var result: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = result.last, last != ".." {
                    result.removeLast()
                } else if !path.hasPrefix("/") {
                    result.append("..")
                }
            default: result.append(String(part))
            }
        }
        return result
    }
}

extension Hasher {
    /// Feeds a string's UTF-8 bytes, so that hashing agrees with byte equality.
    fileprivate mutating func combineUTF8(_ text: String) {
        combine(text.utf8.count)
        for byte in text.utf8 { combine(byte) }
    }
}
