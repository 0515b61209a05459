// The benchmark catalog, shared by the benchmarks (Benchmarks/Sources/BenchmarkWorkload links
// to this file) and the concurrency load test, so both render the same prices.
public import StorePrice

/// The benchmark catalog: `products` products, each priced in every storefront at one of about
/// 200 price points of that storefront's currency, chosen by a fixed pseudo-random sequence.
///
/// With `distinct`, every price in the catalog is different instead (the cold case: no price
/// repeats, so nothing formatted can be reused).
public struct Workload: Sendable {
    public let storefronts: [Storefront]
    public let products: [Product]

    public init(products count: Int, distinct: Bool = false) throws {
        storefronts = Storefront.all
        var random = SplitMix64(seed: 0x5EED)
        var products: [Product] = []
        products.reserveCapacity(count)
        for index in 0..<count {
            let tier = Int(random.next() % 200)
            var prices: [Int: Price] = [:]
            for (offset, storefront) in storefronts.enumerated() {
                let text = distinct
                    ? Self.distinctAmount(product: index, storefront: offset, currency: storefront.currency)
                    : Self.pricePoint(tier, currency: storefront.currency)
                prices[storefront.numericID] = try Price(text, currency: storefront.currency)
            }
            products.append(try Product(id: "com.example.product\(index)", prices: prices))
        }
        self.products = products
    }

    /// The number of prices: products × storefronts.
    public var priceCount: Int { products.count * storefronts.count }

    /// Price point `tier` (0..<200) of a currency: `4.99`-style amounts, or whole hundreds for
    /// currencies without minor units in use (JPY, KRW, …).
    public static func pricePoint(_ tier: Int, currency: CurrencyCode) -> String {
        currency.fractionDigits == 0 || wholeUnitCurrencies.contains(currency.code)
            ? String((tier + 1) * 100)
            : "\(tier).99"
    }

    static func distinctAmount(product: Int, storefront: Int, currency: CurrencyCode) -> String {
        let units = product * 1000 + storefront
        return currency.fractionDigits == 0 ? String(units) : "\(units / 100).\(String(units % 100).leftPadded(2))"
    }

    static let wholeUnitCurrencies: Set<String> = ["COP", "IDR", "HUF", "KZT", "NGN", "PKR", "TZS"]
}

extension String {
    func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

/// A small, fast, reproducible pseudo-random sequence.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
