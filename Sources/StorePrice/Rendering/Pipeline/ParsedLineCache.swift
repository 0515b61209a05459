/// The products of JSON Lines lines read by the reader's own parser (subscriptions, lines with
/// escapes), by line: a subscription's line carries an offer price per storefront, and reading
/// it with `JSONDecoder` costs hundreds of microseconds, where the rows it makes, once the
/// run's parts are cached, cost a few. A service that renders the same catalog again finds its
/// products here, as a price is found in the run's tables.
///
/// Kept with the run's ``RenderContext``: the same catalog name, targets and options. A line is
/// its bytes and its number within its chunk (which products' origins count from); only lines
/// read without error are kept, at most ``limit`` of them or ``byteLimit`` bytes, all forgotten
/// when full.
///
/// Sendable notes: the products are behind their lock.
final class ParsedLineCache: Sendable {
    struct Key: Hashable {
        var line: Int
        var bytes: [UInt8]

        /// The bytes hashed whole, not byte by byte as an array's elements are.
        func hash(into hasher: inout Hasher) {
            hasher.combine(line)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    static let limit = 1024
    static let byteLimit = 4 << 20
    private let products = Locked<(lines: [Key: Product], bytes: Int)>(([:], 0))

    /// The product of a line, read by `read` unless an earlier run read the same line.
    func product(
        _ text: UnsafeBufferPointer<UInt8>, line: Int, read: () throws(StorePriceError) -> Product
    ) throws(StorePriceError) -> Product {
        let key = Key(line: line, bytes: Array(text))
        if let known = products.withLock({ $0.lines[key] }) { return known }
        let product = try read()
        products.withLock { products in
            if products.lines.count >= Self.limit || products.bytes + text.count > Self.byteLimit {
                products = ([:], 0)
            }
            guard text.count <= Self.byteLimit / 4 else { return }
            products.lines[key] = product
            products.bytes += text.count
        }
        return product
    }
}
