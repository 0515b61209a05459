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
final class CSVCatalogReader: CatalogSource {
    static let columns = ["product", "storefront", "price"]

    private var lines: LineReader
    private var columnIndex: (product: Int, storefront: Int, price: Int) = (0, 1, 2)
    private var pending: (id: String, line: Int, prices: [Int: Price], places: [Int: ProductOrigin.PriceSource])?
    private var storefronts = StorefrontCodes()
    private var prices = PriceCache()
    private var seen: ProductIDRegistry
    private var finished = false

    init(path: String, productIDRule rule: ProductIDRule = .appStore) throws(StorePriceError) {
        seen = ProductIDRegistry(rule: rule)
        lines = try LineReader(path: path)
        guard let header = try lines.nextLine() else {
            throw .invalidCatalog(source: path, line: 1, field: nil, reason: "empty; expected the header product,storefront,price")
        }
        columnIndex = try Self.columns(header: header, source: path)
    }

    /// Where the header puts each column: `product`, `storefront` and `price`, in any order.
    static func columns(header: String, source: String) throws(StorePriceError)
        -> (product: Int, storefront: Int, price: Int)
    {
        // `product_id` is the column's name in StorePrice 0.1.0, read as `product`.
        let names = try fields(header, source: source, line: 1).map { $0.lowercased() == "product_id" ? "product" : $0.lowercased() }
        guard Set(names) == Set(columns), names.count == 3 else {
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

    var progress: (done: Int, total: Int?) { (lines.bytesRead, lines.totalBytes) }

    func nextProduct() throws(StorePriceError) -> Product? {
        while !finished {
            guard let line = try lines.nextLine() else {
                finished = true
                break
            }
            if line.isEmpty { continue }
            let number = lines.lineNumber
            let fields = try Self.fields(line, source: lines.path, line: number)
            guard fields.count == 3 else {
                throw .invalidCatalog(
                    source: lines.path, line: number, field: nil,
                    reason: "\(fields.count) field\(fields.count == 1 ? "" : "s"); expected 3")
            }
            let id = fields[columnIndex.product]
            guard !id.isEmpty else {
                throw .invalidCatalog(source: lines.path, line: number, field: "product", reason: "empty")
            }
            let storefront = try storefronts.storefront(
                fields[columnIndex.storefront], source: lines.path, line: number, field: "storefront")
            let written = fields[columnIndex.price]
            let price = try prices.price(written, in: storefront, source: lines.path, line: number, field: "price")
            let place = ProductOrigin.PriceSource(line: number, field: "price", written: written)

            if let current = pending?.id, current.utf8.elementsEqual(id.utf8) {
                // Mutated in place: copying `pending` out would copy its dictionary on every row.
                guard pending?.prices.updateValue(price, forKey: storefront.numericID) == nil else {
                    throw .invalidCatalog(
                        source: lines.path, line: number, field: "storefront",
                        reason: "a second price for '\(id.escapedForMessage)' in \(storefront.countryCode)")
                }
                pending?.places[storefront.numericID] = place
                continue
            }
            try seen.register(id, line: number, source: lines.path, hint: "; keep each product's rows together")
            let finishedProduct = pending
            pending = (id, number, [storefront.numericID: price], [storefront.numericID: place])
            if let finishedProduct { return product(finishedProduct) }
        }
        guard let last = pending else { return nil }
        pending = nil
        return product(last)
    }

    private func product(
        _ read: (id: String, line: Int, prices: [Int: Price], places: [Int: ProductOrigin.PriceSource])
    ) -> Product {
        Product(
            checkedID: read.id, prices: read.prices, titles: [:], descriptions: [:],
            origin: ProductOrigin(source: lines.path, prices: read.places))
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
