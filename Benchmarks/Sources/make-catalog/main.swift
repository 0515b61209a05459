// Writes the benchmark catalog as CSV (product,storefront,price) to standard output.
//
//   swift run --package-path Benchmarks -c release make-catalog 10000 > /tmp/catalog.csv
//   swift run --package-path Benchmarks -c release make-catalog 10000 --distinct > /tmp/cold.csv
import BenchmarkWorkload
import StorePrice

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap { Int($0) } ?? 10_000
let workload = try Workload(products: count, distinct: arguments.contains("--distinct"))
var out = "product,storefront,price\n"
for product in workload.products {
    for storefront in workload.storefronts {
        if let price = product.prices[storefront.numericID] {
            out += "\(product.id),\(storefront.countryCode),\(price.amount)\n"
        }
    }
    if out.utf8.count > 1 << 20 {
        print(out, terminator: "")
        out = ""
    }
}
print(out, terminator: "")
