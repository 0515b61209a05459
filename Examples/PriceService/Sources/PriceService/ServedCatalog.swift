import Foundation
import StorePrice
import Synchronization

/// A catalog as the service serves it: its products, read once and never changed, the app's
/// paywall wording, and the renderers requests use with it.
///
/// A reload makes a new one and ``CatalogStore`` swaps it in whole: a request keeps the one it
/// started with to its end, and what the renderers keep between requests (formatted prices,
/// encoded rows) goes with its catalog, so a new catalog never meets an old cache.
///
/// Sendable notes: every stored property is immutable but ``renderers``, behind a `Mutex`.
final class ServedCatalog: Sendable {
    /// The products, in the catalog's order.
    let products: [Product]
    /// Each product's position in ``products``, by ID.
    private let positions: [String: Int]
    /// The catalog's path, as `CATALOG` gave it.
    let source: String
    /// The format it was read as.
    let format: CatalogFormat
    /// When it was read.
    let loadedAt: Date
    /// For App Store Connect responses, the day (UTC) whose prices are in effect; nil for
    /// formats without dates.
    let pricesInEffectOn: String?
    /// What the reader left out and a person should know, one line each.
    let notes: [String]
    /// The app's templates over the built-in ones, and where they came from (nil: built in).
    let templates: PaywallTemplates
    let templatesSource: String?
    /// The app's offer wording, and where it came from (nil: StorePrice's own).
    let offerWording: OfferWording?
    let offerWordingSource: String?
    /// The renderers requests have used, by what they render for: each keeps its formatted
    /// prices and encoded parts between requests.
    private let renderers = Mutex<[RendererKey: BulkRenderer]>([:])

    /// The most renderers kept: a target and settings a request names, each a renderer. Past it,
    /// a request renders with one of its own.
    static let rendererLimit = 1_024

    private struct RendererKey: Hashable {
        var storefront: Int
        var priceLocale: String
        var account: String?
        var options: PriceFormatter.Options
        var format: BulkRenderer.Format
    }

    private init(
        products: [Product], source: String, format: CatalogFormat, loadedAt: Date, pricesInEffectOn: String?,
        notes: [String], templates: PaywallTemplates, templatesSource: String?, offerWording: OfferWording?,
        offerWordingSource: String?
    ) {
        self.products = products
        var positions: [String: Int] = [:]
        positions.reserveCapacity(products.count)
        for (position, product) in products.enumerated() { positions[product.id] = position }
        self.positions = positions
        self.source = source
        self.format = format
        self.loadedAt = loadedAt
        self.pricesInEffectOn = pricesInEffectOn
        self.notes = notes
        self.templates = templates
        self.templatesSource = templatesSource
        self.offerWording = offerWording
        self.offerWordingSource = offerWordingSource
    }

    /// Why a catalog, or the app's wording, cannot be served: one line naming the file.
    struct LoadFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads the catalog and the app's wording that `configuration` names, with the prices in
    /// effect at `date`; templates are checked in every storefront's store languages, as
    /// `storeprice paywall --check` checks them.
    static func load(_ configuration: CatalogConfiguration, at date: Date = Date()) throws(LoadFailure) -> ServedCatalog {
        let path = configuration.path
        let format: CatalogFormat
        if let given = configuration.format {
            format = given
        } else if let named = CatalogFormat(path: path) {
            format = named
        } else {
            var isFolder: ObjCBool = false
            // A folder holds App Store Connect responses; anything else, Catalog.open names.
            format = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue ? .appStoreConnect : .jsonl
        }
        do {
            var source = try Catalog.open(path, format: configuration.format, effectiveOn: date)
            var products: [Product] = []
            while let product = try source.nextProduct() { products.append(product) }
            let templates = try configuration.templates.map { (path) throws(StorePriceError) in
                try PaywallTemplates(contentsOfFile: path)
            }
            if let templates {
                let problems = templates.check().problems
                if let first = problems.first {
                    let more = problems.count > 1
                        ? "; and \(problems.count - 1) more (storeprice paywall --check lists them all)" : ""
                    throw LoadFailure(description: "TEMPLATES: \(first)\(more)")
                }
            }
            let offerWording = try configuration.offerWording.map { (path) throws(StorePriceError) in
                try OfferWording(contentsOfFile: path)
            }
            return ServedCatalog(
                products: products, source: path, format: format, loadedAt: date,
                pricesInEffectOn: format == .appStoreConnect ? Self.day(of: date) : nil, notes: source.notes,
                templates: templates ?? .builtIn, templatesSource: configuration.templates, offerWording: offerWording,
                offerWordingSource: configuration.offerWording)
        } catch let failure as LoadFailure {
            throw failure
        } catch {
            throw LoadFailure(description: "\(error)")
        }
    }

    /// `YYYY-MM-DD` of a time, in UTC.
    static func day(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// The product with this ID, if the catalog has it.
    func product(_ id: String) -> Product? {
        positions[id].map { products[$0] }
    }

    /// The renderer of `format` rows for a target under `settings`: the one an earlier request
    /// used, with what it kept, or a new one kept for the next.
    func renderer(for target: RenderTarget, settings: PriceSettings, format: BulkRenderer.Format) -> BulkRenderer {
        let key = RendererKey(
            storefront: target.storefront.numericID, priceLocale: target.priceLocale.identifier, account: target.account?.name,
            options: settings.options, format: format)
        if let kept = renderers.withLock({ $0[key] }) { return kept }
        // One worker: requests at once use the cores.
        let made = settings.bulkRenderer(
            targets: [target], format: format, workers: 1, productIDRule: self.format == .play ? .googlePlay : .appStore)
        return renderers.withLock { renderers in
            if let kept = renderers[key] { return kept }
            if renderers.count < Self.rendererLimit { renderers[key] = made }
            return made
        }
    }
}
