/// Products a bulk run reads a chunk at a time: a list in memory hands slices of its own
/// storage; any other source is read one product at a time.
protocol ProductBatches {
    /// The next products, up to `count`: those before the first the source refuses, and that
    /// refusal.
    mutating func nextProducts(upTo count: Int) -> (products: ArraySlice<Product>, failure: StorePriceError?)
    /// How far reading has come: products or bytes read, and, when known, the total.
    var progress: (done: Int, total: Int?) { get }
}

extension ProductList: ProductBatches {}

/// Any catalog source, read one product at a time.
struct OneProductAtATime<Source: CatalogSource>: ProductBatches {
    var source: Source

    mutating func nextProducts(upTo count: Int) -> (products: ArraySlice<Product>, failure: StorePriceError?) {
        var read: [Product] = []
        do throws(StorePriceError) {
            while read.count < count, let product = try source.nextProduct() { read.append(product) }
        } catch {
            return (read[...], error)
        }
        return (read[...], nil)
    }

    var progress: (done: Int, total: Int?) { source.progress }
}
