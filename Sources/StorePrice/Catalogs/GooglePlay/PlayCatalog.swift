#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Products and their prices as Google Play keeps them, read from the Play Developer API's
/// documents as Google's servers write them, or from the Play Console's CSV of in-app products.
///
/// Each file is one of (any names, any order; a folder holds them):
///
/// - `monetization.onetimeproducts` (`{"oneTimeProducts":[…]}`, or one product): a product's
///   price in each region is its buy option's `regionalPricingAndAvailabilityConfigs` price, the
///   legacy-compatible buy option where there are several;
/// - `monetization.subscriptions` (`{"subscriptions":[…]}`, or one): each active base plan is a
///   product, `productId:basePlanId` (as Play Billing's `ProductDetails` pairs them), priced by
///   its `regionalConfigs`, with the billing period of its type;
/// - `monetization.subscriptions.basePlans.offers` (`{"subscriptionOffers":[…]}`, or one): each
///   active offer's first phase becomes an offer of its base plan, a free trial, a discounted
///   recurring price (pay as you go) or a single payment (pay up front), its discounts worked
///   out exactly from the base plan's price;
/// - the legacy `inappproducts` (`{"inappproduct":[…]}`, or one): `prices`, a map of region to
///   `priceMicros` and `currency`;
/// - a Play Console CSV export of in-app products (`.csv`): `Price` as `REGION; micros` pairs.
///
/// Every price must be in its region's buyer currency (``PlayRegion/currency``), every region a
/// Play region, every product ID one Play allows. Prices are the API's, exact; StorePrice never
/// converts, and regions priced only through `otherRegionsConfig` or `newRegionsConfig` (Play's
/// dollar and euro prices for regions without their own) are left out with a note.
///
/// ```swift
/// let catalog = try PlayCatalog(contentsOf: ["onetimeproducts.json", "subscriptions.json"])
/// let targets = RenderTarget.accounts(PlayTester.builtIn.map(\.account))
/// let (rows, _) = try CatalogRenderer(targets: targets, options: .init(style: .play)).render(catalog.products.products)
/// ```
public struct PlayCatalog: Sendable {
    /// The products, in the order the files give them.
    public let products: ProductList
    /// What was left out and a person should know, one line each.
    public let notes: [String]

    /// Reads documents from files.
    ///
    /// - Parameters:
    ///   - paths: the files, such as those ``documentFiles(in:)`` lists.
    ///   - rule: ``ProductIDRule/googlePlay`` (Play's product IDs) unless ``ProductIDRule/any``.
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)``, or
    ///   ``StorePriceError/invalidCatalog(source:line:field:reason:)`` naming the file and the
    ///   JSON path (or CSV line) of what Play would not have written.
    public init(contentsOf paths: [String], productIDRule rule: ProductIDRule = .googlePlay) throws(StorePriceError) {
        var reader = PlayCatalogReader(rule: rule == .any ? .any : .googlePlay)
        for path in paths {
            try reader.read(try InputFile(path: path).readAll(), source: path)
        }
        try self.init(reader: reader, rule: rule)
    }

    /// Reads documents already in memory, such as a request body or what `storeprice play pull`
    /// fetches.
    ///
    /// - Parameters:
    ///   - documents: each document's name for messages (its file or URL; a name ending in
    ///     `.csv` is a Play Console CSV) and its bytes.
    ///   - rule: ``ProductIDRule/googlePlay`` unless ``ProductIDRule/any``.
    public init(documents: [(name: String, bytes: [UInt8])], productIDRule rule: ProductIDRule = .googlePlay)
        throws(StorePriceError)
    {
        var reader = PlayCatalogReader(rule: rule == .any ? .any : .googlePlay)
        for document in documents { try reader.read(document.bytes, source: document.name) }
        try self.init(reader: reader, rule: rule)
    }

    private init(reader: PlayCatalogReader, rule: ProductIDRule) throws(StorePriceError) {
        var reader = reader
        let (products, notes) = try reader.products()
        var list = ProductList(products, productIDRule: rule == .any ? .any : .googlePlay)
        list.notes = notes
        self.products = list
        self.notes = notes
    }

    /// The `.json` and `.csv` files in a folder, sorted by name.
    public static func documentFiles(in directory: String) throws(StorePriceError) -> [String] {
        try Catalog.files(
            in: directory, endingIn: [".json", ".csv"],
            none: "no .json or .csv files; a Play catalog folder holds Play Developer API documents or Play Console CSV files",
            holding: "document files")
    }
}
