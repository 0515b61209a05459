#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams a CSV catalog: a header `product,storefront,price` (in any order) and one row per price.
///
/// The rows of one product must be together; a product that appears again after another is an
/// error, as is a second price for the same storefront. Fields may be quoted (RFC 4180, within a line).
///
/// The catalog is read by the bulk pipeline's own reader and parser (``BulkRenderer``), a chunk
/// at a time on the calling thread, into products: one grammar, one implementation.
final class CSVCatalogReader: CatalogSource {
    static let columns = ["product", "storefront", "price"]

    private let path: String
    private let reader: ChunkReader
    private let chunk = BulkChunk()
    private let renderer: RendererBox
    private var seen: ProductIDRegistry
    /// The products of the chunk read last, handed out in order, then its error, if any.
    private var read: [Product] = []
    private var lines: [Int] = []
    private var nextIndex = 0
    private var failure: StorePriceError?
    private var more = true
    /// Lines before the next chunk: the header is line 1.
    private var linesBefore = 1

    init(path: String, productIDRule rule: ProductIDRule = .appStore) throws(StorePriceError) {
        self.path = path
        seen = ProductIDRegistry(rule: rule)
        reader = try ChunkReader(path: path, cut: .products)
        let columns = try reader.readHeader()
        let plan = try BulkPlan(
            source: path, columns: columns, layout: RowLayout(format: .csv, targets: [], escapeNonASCII: false, rawCSV: false),
            targets: [], options: .init(), wanted: nil, titles: false, readsProducts: true)
        let generations = PriceTables.Generations {
            PriceTables(currencies: plan.currencies.count, targets: 0, storefronts: plan.storefronts.count, workers: 1)
        }
        renderer = RendererBox(ChunkRenderer(plan: plan, generations: generations, worker: 0), jsonLines: false)
    }

    var progress: (done: Int, total: Int?) { (chunk.fileOffset, reader.totalBytes) }

    func nextProduct() throws(StorePriceError) -> Product? {
        while nextIndex == read.count {
            if let failure {
                self.failure = nil
                more = false
                throw failure
            }
            guard more else { return nil }
            try readChunk()
        }
        let product = read[nextIndex]
        let line = lines[nextIndex]
        nextIndex += 1
        do {
            try seen.register(product.id, line: line, source: path, hint: "; keep each product's rows together")
        } catch {
            // An error ends the catalog, as a bad line does.
            (read, nextIndex, failure, more) = ([], 0, nil, false)
            throw error
        }
        return product
    }

    /// Reads the next chunk into products, and the error that ends it, if any.
    private func readChunk() throws(StorePriceError) {
        more = try reader.next(into: chunk)
        chunk.input.padWithZeros(ChunkRenderer.padding)
        renderer.renderer.lineOffset = linesBefore
        renderer.render(chunk)
        read = chunk.results.read
        lines = chunk.results.products.map { linesBefore + $0.line }
        nextIndex = 0
        if let bad = chunk.results.failure ?? chunk.readFailure {
            let line = chunk.results.failure == nil ? chunk.results.lines + 1 : bad.line
            failure = bad.error ?? .invalidCatalog(source: path, line: linesBefore + line, field: bad.field, reason: bad.reason)
            // Only the products before the failing line are whole; past a reading failure (a
            // line too long, a product too large), the chunk's last product may go on after it.
            let whole = chunk.results.products.prefix { $0.line < line }.count - (chunk.results.failure == nil ? 1 : 0)
            read = Array(read.prefix(max(0, whole)))
        }
        linesBefore += chunk.results.lines
    }

    /// Where the header puts each column: `product`, `storefront` and `price`, in any order.
    static func columns(header: String, source: String) throws(StorePriceError)
        -> (product: Int, storefront: Int, price: Int)
    {
        // `product_id` is the column's name in StorePrice 0.1.0, read as `product`.
        let names = try fields(header, source: source, line: 1).map { $0.lowercased() == "product_id" ? "product" : $0.lowercased() }
        guard Set(names) == Set(columns), names.count == 3 else {
            if names.starts(with: ["product id", "published state", "purchase type"]) {
                throw .invalidCatalog(
                    source: source, line: 1, field: nil,
                    reason: "this is the Play Console's CSV of in-app products; read it as a Google Play catalog, format play")
            }
            let expected = "the header product,storefront,price (columns in any order)"
            // The line is quoted only when it looks like a header: a file that is not a catalog
            // may hold anything on its first line, secrets included.
            let looksLikeHeader = names.count <= 8 && names.allSatisfy { name in
                name.utf8.count <= 32
                    && name.utf8.allSatisfy {
                        $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: " ")
                            || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0)
                    }
            }
            guard looksLikeHeader else {
                throw .invalidCatalog(source: source, line: 1, field: nil, reason: "the first line is not \(expected)")
            }
            let missing = columns.filter { !names.contains($0) }
            var unknown: [String] = []
            var repeated: [String] = []
            for (index, name) in names.enumerated() where !unknown.contains(name) && !repeated.contains(name) {
                if !columns.contains(name) { unknown.append(name) } else if names[..<index].contains(name) { repeated.append(name) }
            }
            func list(_ items: [String]) -> String { items.map { "'\($0)'" }.joined(separator: ", ") }
            var problems: [String] = []
            let trimmed = names.map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
            if trimmed != names, Set(trimmed) == Set(columns), trimmed.count == 3 {
                throw .invalidCatalog(
                    source: source, line: 1, field: nil,
                    reason: "the header has spaces around its names (\(list(names.filter { $0.contains(" ") }))); write it product,storefront,price")
            }
            if unknown.contains("") {
                problems.append("an empty column")
                unknown.removeAll { $0.isEmpty }
            }
            if !unknown.isEmpty { problems.append("\(unknown.count == 1 ? "an unknown column" : "unknown columns") \(list(unknown))") }
            if !repeated.isEmpty { problems.append("\(list(repeated)) twice") }
            if !missing.isEmpty { problems.append("no \(list(missing)) column") }
            throw .invalidCatalog(
                source: source, line: 1, field: nil,
                reason: "the header has \(problems.joined(separator: " and ")); a catalog's first line is \(expected)")
        }
        return (
            names.firstIndex(of: "product") ?? 0, names.firstIndex(of: "storefront") ?? 1,
            names.firstIndex(of: "price") ?? 2
        )
    }

    /// Splits one CSV line into fields; quoted fields may hold commas and doubled quotes.
    ///
    /// The line is split on its UTF-8 bytes: a comma or quote is always one byte, and a combining
    /// mark after a quote (`"id",\u{0301}x`) is the next field's first character, not part of the
    /// quote's grapheme cluster.
    static func fields(_ line: String, source: String, line number: Int) throws(StorePriceError) -> [String] {
        var line = line
        let split = line.withUTF8 { bytes -> [String]? in
            let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
            var fields: [String] = []
            fields.reserveCapacity(4)
            guard let base = bytes.baseAddress else { return [""] }
            if memchr(base, Int32(quote), bytes.count) == nil {
                // The common case, no quotes: cut at each comma.
                var start = 0
                for index in 0...bytes.count where index == bytes.count || bytes[index] == comma {
                    fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                    start = index + 1
                }
                return fields
            }
            var field: [UInt8] = []
            var quoted = false
            var atFieldStart = true
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if quoted {
                    if byte == quote {
                        // A doubled quote is a literal quote; a single one ends the quoted part.
                        if index < bytes.count, bytes[index] == quote {
                            field.append(quote)
                            index += 1
                        } else {
                            quoted = false
                        }
                    } else {
                        field.append(byte)
                    }
                } else if byte == comma {
                    fields.append(String(decoding: field, as: UTF8.self))
                    field.removeAll(keepingCapacity: true)
                    atFieldStart = true
                    continue
                } else if byte == quote && atFieldStart {
                    quoted = true
                } else {
                    field.append(byte)
                }
                atFieldStart = false
            }
            guard !quoted else { return nil }
            fields.append(String(decoding: field, as: UTF8.self))
            return fields
        }
        guard let split else {
            throw .invalidCatalog(source: source, line: number, field: nil, reason: "a quoted field is not closed")
        }
        return split
    }
}
