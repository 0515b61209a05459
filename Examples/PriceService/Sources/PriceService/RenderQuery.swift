import Dispatch
import Hummingbird
import StorePrice

/// `POST /v1/render`: a catalog in the body, rendered for storefronts or test accounts to the
/// JSON Lines rows `storeprice render - --catalog-format jsonl --storefronts …` writes.
struct RenderQuery: Sendable {
    let renderer: BulkRenderer
    let format: CatalogFormat

    /// The parameters the route takes, to name in messages.
    static let parameters = ["storefronts", "accounts", "style"]

    init(_ query: Hummingbird.Parameters, contentType: String?) throws {
        if let unknown = query.first(where: { !Self.parameters.contains(String($0.key)) }) {
            throw ServiceError.badRequest(
                "unknown parameter '\(unknown.key)'; /v1/render takes \(Self.parameters.joined(separator: ", "))")
        }
        let style: PriceFormatter.Style
        switch query.get("style") {
        case nil, "icu": style = .icu
        case "app-store": style = .appStore
        case let other?: throw ServiceError.badRequest("unknown style '\(other)'; use icu or app-store")
        }
        // A CSV catalog says so; anything else is read as JSON Lines.
        format = contentType?.lowercased().hasPrefix("text/csv") == true ? .csv : .jsonl
        let targets: [RenderTarget]
        do {
            switch (query.get("storefronts"), query.get("accounts")) {
            case (let codes?, nil):
                targets = RenderTarget.storefronts(
                    codes == "all" ? Storefront.all : try codes.split(separator: ",").map { try Storefront(String($0)) })
            case (nil, let names?):
                targets = RenderTarget.accounts(
                    try names.split(separator: ",").map { try TestAccountFile.builtIn.account(named: String($0)) })
            case (nil, nil):
                targets = RenderTarget.accounts(TestAccountFile.builtIn.accounts)
            case (_?, _?):
                throw ServiceError.badRequest("give storefronts or accounts, not both")
            }
        } catch let error as StorePriceError {
            throw ServiceError.badRequest(error.description)
        }
        // One worker: requests in flight use the cores.
        renderer = BulkRenderer(targets: targets, options: .init(style: style), workers: 1)
    }

    /// Starts rendering on a thread of its own and answers once the first rows (or the error
    /// before them) are known: a catalog whose first chunk is bad is a 400, and a later error ends
    /// the stream early, as `storeprice render` stops with the rows before it written.
    func response(catalog: [UInt8]) async throws -> Response {
        let channel = RowChannel()
        let renderer = renderer
        let format = format
        DispatchQueue.global().async {
            do {
                _ = try renderer.render(catalog: catalog, format: format, name: "request body") { bytes in
                    try channel.send(ByteBuffer(bytes: bytes))
                }
                channel.finish(throwing: nil)
            } catch {
                channel.finish(throwing: error)
            }
        }
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
            return Response(status: .ok, headers: headers, body: ResponseBody())
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

/// The iterator of a response's remaining rows, handed to the body's writer, which alone uses it.
private struct RemainingRows: @unchecked Sendable {
    var iterator: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
}
