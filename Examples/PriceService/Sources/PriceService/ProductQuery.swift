import Hummingbird
import Logging
import StorePrice

/// `GET /v1/products/{productID}` and `GET /v1/products`: a served catalog's products in a
/// storefront (`storefront=JPN`, with `language=fr` for another store language) or a test
/// account's store (`account=jpn`), as the rows `storeprice render` writes; `style=` and
/// `rounding=` as `/v1/price` takes them.
struct ProductQuery {
    private let parameters: QueryParameters

    /// The parameters the routes take, to name in messages.
    static let parameters = ["storefront", "language", "account", "style", "rounding"]

    init(_ query: Hummingbird.Parameters, route: String) throws {
        try self.init(QueryParameters(query, route: route, allowed: Self.parameters))
    }

    /// Checks what can be checked without the catalog: one of storefront= and account=, and
    /// language= only with storefront=. The rest is read for the catalog, by ``resolved(for:)``.
    init(_ parameters: QueryParameters) throws {
        switch (parameters["storefront"], parameters["account"]) {
        case (nil, nil):
            throw ServiceError.badRequest("missing storefront or account: storefront=JPN or account=jpn")
        case (_?, _?):
            throw ServiceError.badRequest("give only one of storefront= and account=")
        case (nil, _?):
            if parameters["language"] != nil { throw ServiceError.badRequest("language= goes with storefront=") }
        case (_?, nil):
            break
        }
        self.parameters = parameters
    }

    /// The target and settings for a catalog: for a Google Play catalog (`CATALOG_FORMAT=play`)
    /// storefront= is a Play region (`BD`), account= a Play tester (`play-bd`), and the style
    /// the Play style unless style=icu.
    func resolved(for catalog: ServedCatalog) throws -> (target: RenderTarget, settings: PriceSettings) {
        let play = catalog.format == .play
        let settings = try parameters.settings(play: play)
        do {
            if let name = parameters["account"] {
                let account = play ? try PlayTester.named(name).account : try TestAccountFile.builtIn.account(named: name)
                return (RenderTarget(account: account), settings)
            }
            let code = parameters["storefront"] ?? ""
            let storefront = play ? try PlayRegion(code).storefront : try Storefront(code)
            let target = try parameters["language"].map { (language) throws(StorePriceError) in
                try RenderTarget(storefront: storefront, language: language)
            } ?? RenderTarget(storefront: storefront)
            return (target, settings)
        } catch {
            throw ServiceError.badRequest(error.description)
        }
    }

    /// The served catalog, or why there is none: a `404` without `CATALOG`, a `503` while it loads.
    static func catalog(_ store: CatalogStore) throws -> ServedCatalog {
        if let catalog = store.catalog { return catalog }
        guard store.configuration != nil else {
            throw ServiceError(status: .notFound, message: "this service serves no catalog; start it with CATALOG=PATH")
        }
        throw ServiceError(
            status: .serviceUnavailable, message: "the catalog is loading; try again in a second", headers: [.retryAfter: "1"])
    }

    /// A product of the catalog, or a `404` that names it.
    static func product(_ id: String, in catalog: ServedCatalog) throws -> Product {
        guard let product = catalog.product(id) else {
            throw ServiceError(
                status: .notFound, message: "unknown product '\(id.quotedForMessage)'; the catalog has no product with that ID")
        }
        return product
    }

    /// `GET /v1/products/{productID}`: the product's row here, or a `404` naming the product (and
    /// the storefront, when it has no price there).
    func row(of id: String, in catalog: ServedCatalog) throws -> Response {
        let (target, settings) = try resolved(for: catalog)
        let product = try Self.product(id, in: catalog)
        guard product.price(inStorefront: target.storefront.numericID) != nil else {
            throw ServiceError(
                status: .notFound,
                message: "product '\(id.quotedForMessage)' has no price in \(target.storefront.countryCode); it is not sold there")
        }
        let renderer = catalog.renderer(for: target, settings: settings, format: .jsonLines)
        var body = ByteBuffer()
        do {
            _ = try renderer.render([product]) { body.writeBytes($0) }
        } catch let error as StorePriceError {
            // A price the settings cannot show, such as a fraction of a yen with rounding=reject.
            throw ServiceError.badRequest(error.description)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: "\(body.readableBytes)"],
            body: ResponseBody(byteBuffer: body))
    }

    /// `GET /v1/products`: a JSON array of the rows of every product priced here, in catalog
    /// order: answered whole up to ``RenderedRows/wholeRows`` products, streamed past that.
    func rows(in catalog: ServedCatalog, pool: RenderPool, logger: Logger) async throws -> Response {
        let (target, settings) = try resolved(for: catalog)
        let renderer = catalog.renderer(for: target, settings: settings, format: .json)
        return try await RenderedRows(contentType: "application/json; charset=utf-8", invalidProductsMessage: nil)
            .response(rows: catalog.products.count, pool: pool, logger: logger) { write in
                // A product not sold here has no row, and is no error.
                try renderer.render(catalog.products, invalidProduct: { _ in }, write: write)
            }
    }
}
