#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Products and their prices as App Store Connect keeps them, read from the API's responses as
/// Apple sends them, and the price in effect in each territory on one day.
///
/// The responses are JSON:API documents, one a file, in any order and with any names:
///
/// - the lists that name the products: `GET /v1/apps/{id}/inAppPurchasesV2` (`inAppPurchases`),
///   `GET /v1/subscriptionGroups/{id}/subscriptions` (`subscriptions`, with their period), and
///   `GET /v1/apps/{id}` for an app's own price;
/// - their prices, with the price points and territories included: `GET
///   /v1/inAppPurchasePriceSchedules/{id}/manualPrices` and `…/automaticPrices`, `GET
///   /v1/subscriptions/{id}/prices`, and `GET /v1/appPriceSchedules/{id}/manualPrices` and
///   `…/automaticPrices`, each with `include=…PricePoint,territory`;
/// - optionally titles: `GET /v2/inAppPurchases/{id}/inAppPurchaseLocalizations` and
///   `GET /v1/subscriptions/{id}/subscriptionLocalizations`.
///
/// A price belongs to the product its response's `links.self` names, and its amount is its price
/// point's `customerPrice`, exactly as written. In each territory the price in effect on the day
/// is the one whose `startDate` (null: since always) is on or before it and whose `endDate`
/// (null: until further notice) is after it; of several, the latest to start, and a manual price
/// before an automatic one that starts the same day. Prices that start later are left out, with a
/// note. StorePrice never converts: every price is the one Apple's data gives.
///
/// ```swift
/// let files = try AppStoreConnectCatalog.responseFiles(in: "asc-responses")
/// let catalog = try AppStoreConnectCatalog(contentsOf: files, effectiveOn: Date())
/// let (rows, _) = try CatalogRenderer(targets: [RenderTarget(storefront: Storefront("JPN"))]).render(catalog.products.products)
/// ```
public struct AppStoreConnectCatalog: Sendable {
    /// The products, in the order the lists give them, each with its prices in effect.
    public let products: ProductList
    /// The day the prices are in effect, `YYYY-MM-DD` in UTC.
    public let day: String
    /// What was left out and a person should know, one line each: later prices, pages that no
    /// file gives, products with no price response.
    public let notes: [String]

    /// Reads responses from files.
    ///
    /// - Parameters:
    ///   - paths: the response files, such as those ``responseFiles(in:)`` lists.
    ///   - date: the prices in effect at this time, taken in UTC as App Store Connect dates them.
    ///   - rule: which product IDs the catalog may have; App Store Connect's by default.
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)``, or
    ///   ``StorePriceError/invalidCatalog(source:line:field:reason:)`` naming the file and the JSON
    ///   path of what the API would not have written.
    public init(contentsOf paths: [String], effectiveOn date: Date, productIDRule rule: ProductIDRule = .appStore)
        throws(StorePriceError)
    {
        var documents: [(name: String, json: [UInt8])] = []
        for path in paths { documents.append((path, try InputFile(path: path).readAll())) }
        try self.init(documents: documents, effectiveOn: date, productIDRule: rule)
    }

    /// Reads responses already in memory, such as those `storeprice asc pull` fetches.
    ///
    /// - Parameters:
    ///   - documents: each response's name for messages (its file or URL) and its JSON.
    ///   - date: the prices in effect at this time, taken in UTC.
    ///   - rule: which product IDs the catalog may have; App Store Connect's by default.
    public init(documents: [(name: String, json: [UInt8])], effectiveOn date: Date, productIDRule rule: ProductIDRule = .appStore)
        throws(StorePriceError)
    {
        var reader = Reader(effectiveOn: date, productIDRule: rule)
        for document in documents {
            _ = try reader.read(document.json, source: document.name)
        }
        self = try reader.catalog()
    }

    private init(products: [Product], notes: [String], day: String, rule: ProductIDRule) {
        var list = ProductList(products, productIDRule: rule)
        list.notes = notes
        self.day = day
        self.products = list
        self.notes = notes
    }

    /// Responses read one at a time as they arrive, each once, as `storeprice asc pull` reads
    /// them: a response's bytes can go as soon as it is read, and only what the catalog needs is
    /// kept.
    ///
    /// ```swift
    /// var reader = AppStoreConnectCatalog.Reader(effectiveOn: Date())
    /// for path in try AppStoreConnectCatalog.responseFiles(in: "asc-responses") {
    ///     let response = try reader.read(try Array(Data(contentsOf: URL(fileURLWithPath: path))), source: path)
    ///     print(response.resources.map(\.id), response.next ?? "no next page")
    /// }
    /// let catalog = try reader.catalog()
    /// ```
    public struct Reader: Sendable {
        private var responses: AppStoreConnectResponses
        private let rule: ProductIDRule

        /// A reader of responses whose prices and offers in effect at `date` (in UTC) make the catalog.
        public init(effectiveOn date: Date, productIDRule rule: ProductIDRule = .appStore) {
            responses = AppStoreConnectResponses(day: CivilTime.day(of: date))
            self.rule = rule
        }

        /// Reads one response, checked as a catalog of responses is.
        ///
        /// - Parameters:
        ///   - json: the response's body.
        ///   - source: its name in messages: its file, or the URL it answered.
        /// - Returns: what its `data` lists and its next page.
        /// - Throws: ``StorePriceError/invalidCatalog(source:line:field:reason:)`` naming `source`
        ///   and the JSON path of what the API would not have written.
        public mutating func read(_ json: [UInt8], source: String) throws(StorePriceError) -> Response {
            try responses.read(json, source: source)
        }

        /// The catalog of every response read: each product with its prices and offers in effect.
        public func catalog() throws(StorePriceError) -> AppStoreConnectCatalog {
            let (products, notes) = try responses.products(rule: rule)
            return AppStoreConnectCatalog(products: products, notes: notes, day: responses.day, rule: rule)
        }
    }

    /// What one response gave besides its prices and titles: the resources its `data` lists (in
    /// order) and the URL of its next page, if any.
    public struct Response: Sendable {
        /// A resource of `data`: its type, its ID, and an app's bundle ID.
        public struct Resource: Sendable {
            public let type: String
            public let id: String
            public let bundleID: String?
        }

        public let resources: [Resource]
        /// `links.self`: the request the response answers.
        public let selfLink: String?
        /// `links.next`: the next page of the list, while there are more.
        public let next: String?
    }

    /// The `.json` files in a folder, sorted by name: the responses `storeprice render` reads when
    /// given the folder.
    public static func responseFiles(in directory: String) throws(StorePriceError) -> [String] {
        try Catalog.files(
            in: directory, endingIn: [".json"],
            none: "no .json files; a folder catalog holds App Store Connect responses, one a file", holding: "response files")
    }
}
