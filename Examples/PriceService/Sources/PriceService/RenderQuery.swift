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

    /// Answers a small render whole (``whole(catalog:pool:logger:)``); renders a larger one on a
    /// thread of `pool` and answers once the first rows (or the error before them)
    /// are known: a catalog whose first chunk is bad is a 400, and a later error ends the stream
    /// early, as `storeprice render` stops with the rows before it written. Past the pool's
    /// limit of renders at once, a 503 with `Retry-After`.
    ///
    /// Invalid products (no price in a requested storefront) have rows only where priced, as in
    /// the CLI; they are logged, as the CLI lists them on standard error.
    func response(catalog: [UInt8], pool: RenderPool, logger: Logger) async throws -> Response {
        try check(catalog)
        if Self.rowsAtMost(catalog, targets: renderer.targets.count) <= Self.wholeRows {
            return try whole(catalog: catalog, pool: pool, logger: logger)
        }
        let channel = RowChannel()
        let renderer = renderer
        let format = format
        let started = pool.start {
            do {
                let report = try renderer.render(catalog: catalog, format: format, name: "request body") { bytes in
                    try channel.send(ByteBuffer(bytes: bytes))
                }
                if !report.invalidProducts.isEmpty {
                    logger.notice(
                        "invalid products: rows only where priced",
                        metadata: [
                            "count": "\(report.invalidProducts.count)",
                            "first": "\(report.invalidProducts[0])",
                        ])
                }
                channel.finish(throwing: nil)
            } catch is RowChannel.ClientGone {
                logger.info("client went away; rendering stopped")
                channel.finish(throwing: nil)
            } catch {
                // The client's catalog: its error is the client's, not the service's.
                logger.notice("render stopped", metadata: ["error": "\(error)"])
                channel.finish(throwing: error)
            }
        }
        guard started else { throw RenderPool.busy(limit: pool.limit) }
        var rows = channel.stream.makeAsyncIterator()
        let first: ByteBuffer?
        do {
            first = try await channel.next(&rows)
        } catch let error as StorePriceError {
            channel.close()
            throw ServiceError.badRequest(error.description)
        }
        let headers: HTTPFields = [.contentType: "application/x-ndjson; charset=utf-8"]
        guard let first else {
            channel.close()
            var empty = headers
            empty[.contentLength] = "0"
            return Response(status: .ok, headers: empty, body: ResponseBody())
        }
        let rest = RemainingRows(iterator: rows)
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                defer { channel.close() }
                var rows = rest.iterator
                var next: ByteBuffer? = first
                while let buffer = next {
                    try await writer.write(buffer)
                    next = try await channel.next(&rows)
                }
                try await writer.finish(nil)
            })
    }
}

extension RenderQuery {
    /// The most rows a render answers whole rather than streamed: a few products for a few
    /// targets, rendered in the request's task in well under a millisecond. Their bytes never
    /// wait on the client, so the render needs no thread of its own, and the answer has a
    /// `Content-Length`.
    static let wholeRows = 4_096

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

    /// Renders a small catalog in the request's task and answers it whole: the rows, or a 400
    /// with the catalog's first error. It counts among the pool's renders at once.
    func whole(catalog: [UInt8], pool: RenderPool, logger: Logger) throws -> Response {
        guard pool.reserve() else { throw RenderPool.busy(limit: pool.limit) }
        defer { pool.release() }
        var body = ByteBuffer()
        let report: RenderReport
        do {
            report = try renderer.render(catalog: catalog, format: format, name: "request body") { body.writeBytes($0) }
        } catch let error as StorePriceError {
            logger.notice("render stopped", metadata: ["error": "\(error)"])
            throw ServiceError.badRequest(error.description)
        }
        if !report.invalidProducts.isEmpty {
            logger.notice(
                "invalid products: rows only where priced",
                metadata: ["count": "\(report.invalidProducts.count)", "first": "\(report.invalidProducts[0])"])
        }
        let headers: HTTPFields = [
            .contentType: "application/x-ndjson; charset=utf-8", .contentLength: "\(body.readableBytes)",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}

/// The iterator of a response's remaining rows, handed to the body's writer, which alone uses it.
private struct RemainingRows: @unchecked Sendable {
    var iterator: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
}
