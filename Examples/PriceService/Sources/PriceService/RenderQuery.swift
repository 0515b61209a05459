import Foundation
import Hummingbird
import Logging
import StorePrice

/// `POST /v1/render`: a catalog in the body, rendered for storefronts or test accounts to the
/// JSON Lines rows `storeprice render - --catalog-format jsonl --storefronts …` writes.
struct RenderQuery: Sendable {
    let renderer: BulkRenderer
    let format: CatalogFormat

    /// The parameters the route takes, to name in messages.
    static let parameters = ["storefronts", "accounts", "style", "rounding"]

    init(_ query: Hummingbird.Parameters, headers: HTTPFields) throws {
        let parameters = try QueryParameters(query, route: "/v1/render", allowed: Self.parameters)
        let settings = try parameters.settings()
        if let encoding = headers[.contentEncoding]?.trimmingCharacters(in: .whitespaces).lowercased(),
            encoding != "identity"
        {
            throw ServiceError(
                status: .unsupportedMediaType,
                message: "a catalog is sent uncompressed; Content-Encoding '\(encoding)' is not read here")
        }
        // A catalog is UTF-8: a body declared in another charset would be read as garbage.
        if let contentType = headers[.contentType] {
            for parameter in contentType.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "charset" else { continue }
                let charset = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
                guard charset == "utf-8" || charset == "utf8" || charset == "us-ascii" else {
                    throw ServiceError(
                        status: .unsupportedMediaType,
                        message: "a catalog is UTF-8; charset '\(charset.quotedForMessage)' is not read here: send it as UTF-8")
                }
            }
        }
        // The media type, without parameters such as charset.
        let contentType = headers[.contentType]
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch mediaType {
        // Also what `curl --data-binary` and generic clients send when told nothing.
        case nil, "application/x-ndjson", "application/jsonl", "application/json-lines", "application/json", "text/plain",
            "application/x-www-form-urlencoded", "application/octet-stream":
            format = .jsonl
        case "text/csv":
            format = .csv
        case let other?:
            throw ServiceError(
                status: .unsupportedMediaType,
                message: "a catalog is JSON Lines (application/x-ndjson) or CSV (text/csv), not \(other)")
        }
        let targets: [RenderTarget]
        do {
            // Each storefront or account once, in the order first named, as the CLI reads them.
            switch (parameters["storefronts"], parameters["accounts"]) {
            case (let codes?, nil):
                var storefronts: [Storefront] = []
                for code in codes.split(separator: ",") {
                    if code.lowercased() == "all" {
                        storefronts += Storefront.all.filter { !storefronts.contains($0) }
                        continue
                    }
                    let storefront = try Storefront(String(code))
                    if !storefronts.contains(storefront) { storefronts.append(storefront) }
                }
                guard !storefronts.isEmpty else { throw ServiceError.badRequest("storefronts= names no storefront") }
                targets = RenderTarget.storefronts(storefronts)
            case (nil, let names?):
                var accounts: [TestAccount] = []
                for name in names.split(separator: ",") {
                    let account = try TestAccountFile.builtIn.account(named: String(name))
                    if !accounts.contains(account) { accounts.append(account) }
                }
                guard !accounts.isEmpty else { throw ServiceError.badRequest("accounts= names no account") }
                targets = RenderTarget.accounts(accounts)
            case (nil, nil):
                targets = RenderTarget.accounts(TestAccountFile.builtIn.accounts)
            case (_?, _?):
                throw ServiceError.badRequest("give storefronts= or accounts=, not both")
            }
        } catch let error as StorePriceError {
            throw ServiceError.badRequest(error.description)
        }
        // One worker: requests in flight use the cores.
        renderer = settings.bulkRenderer(targets: targets, workers: 1)
    }

    /// Checks what the body is before it is rendered: a JSON array or object spread over lines
    /// is not JSON Lines, and says so in words.
    func check(_ catalog: [UInt8]) throws {
        guard format == .jsonl, let first = catalog.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return }
        if first == UInt8(ascii: "[") {
            throw ServiceError.badRequest(
                "the body is a JSON array; a catalog is JSON Lines: one product object per line, no brackets or commas between them")
        }
    }

    /// Renders the catalog in the body: answered whole up to ``RenderedRows/wholeRows`` rows,
    /// streamed past that (see ``RenderedRows``).
    ///
    /// Invalid products (no price in a requested storefront) have rows only where priced, as in
    /// the CLI; they are logged, as the CLI lists them on standard error.
    func response(catalog: [UInt8], pool: RenderPool, logger: Logger) async throws -> Response {
        try check(catalog)
        let renderer = renderer
        let format = format
        return try await RenderedRows(
            contentType: "application/x-ndjson; charset=utf-8", invalidProductsMessage: "invalid products: rows only where priced"
        ).response(rows: Self.rowsAtMost(catalog, targets: renderer.targets.count), pool: pool, logger: logger) { write in
            try renderer.render(catalog: catalog, format: format, name: "request body", write: write)
        }
    }
}

extension RenderQuery {
    /// At most how many rows a catalog gives: a line (a product, or a CSV price) for each target.
    static func rowsAtMost(_ catalog: [UInt8], targets: Int) -> Int {
        let lines = catalog.withUnsafeBufferPointer { bytes in
            guard var position = bytes.baseAddress else { return 0 }
            let end = position + bytes.count
            var lines = 1
            while let newline = memchr(position, 0x0A, end - position) {
                lines += 1
                position = UnsafePointer(newline.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return lines
        }
        return lines * targets
    }
}
