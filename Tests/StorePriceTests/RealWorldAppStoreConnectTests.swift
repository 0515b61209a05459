import Foundation
@testable import StorePrice
import TestSupport
import Testing

/// App Store Connect responses that projects recorded from Apple's API and published, read from
/// `../shared/realworld/app-store-connect/` beside this repository (as in CI), or from the folder
/// `STOREPRICE_ASC_RESPONSES` names. Each price is checked against an oracle written here with
/// `JSONSerialization`, which shares no code with the reader: per territory, the one price whose
/// days hold the day, its price point's `customerPrice`.
private let responsesFolder = ProcessInfo.processInfo.environment["STOREPRICE_ASC_RESPONSES"]
    ?? repositoryFile("../shared/realworld/app-store-connect").path

@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: responsesFolder),
        "no recorded App Store Connect responses: ../shared/realworld/app-store-connect is not beside the repository"))
struct RealWorldAppStoreConnectTests {
    /// (product ID or app ID, territory) → customerPrice and the territory's currency
    /// (`"0.99 USD"`), as the oracle reads the files.
    static func expected(on day: String, files: [String]) throws -> [String: String] {
        var productIDs: [String: String] = [:]
        var documents: [[String: Any]] = []
        for file in files {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file)))
            guard let document = object as? [String: Any] else { continue }
            documents.append(document)
            for resource in document["data"] as? [[String: Any]] ?? [] where resource["type"] as? String == "inAppPurchases" {
                let attributes = resource["attributes"] as? [String: Any]
                if let id = resource["id"] as? String, let productID = attributes?["productId"] as? String {
                    productIDs[id] = productID
                }
            }
        }
        var candidates: [String: [String]] = [:]
        for document in documents {
            guard let data = document["data"] as? [[String: Any]],
                let link = (document["links"] as? [String: Any])?["self"] as? String
            else { continue }
            // The schedule's ID is the path segment after the schedule's name.
            let parts = link.split(separator: "?")[0].split(separator: "/").map(String.init)
            guard let at = parts.firstIndex(where: { $0 == "inAppPurchasePriceSchedules" || $0 == "appPriceSchedules" }),
                at + 1 < parts.count
            else { continue }
            let owner = parts[at] == "appPriceSchedules" ? parts[at + 1] : productIDs[parts[at + 1]] ?? "?"
            var points: [String: String] = [:]
            var currencies: [String: String] = [:]
            for item in document["included"] as? [[String: Any]] ?? [] {
                let attributes = item["attributes"] as? [String: Any]
                if let id = item["id"] as? String, let price = attributes?["customerPrice"] as? String {
                    points[id] = price
                }
                if item["type"] as? String == "territories", let id = item["id"] as? String, let currency = attributes?["currency"] as? String {
                    currencies[id] = currency
                }
            }
            for price in data {
                let relationships = price["relationships"] as? [String: Any] ?? [:]
                let point = relationships.first { $0.key.hasSuffix("PricePoint") }?.value as? [String: Any]
                let territory = (relationships["territory"] as? [String: Any])?["data"] as? [String: Any]
                let attributes = price["attributes"] as? [String: Any] ?? [:]
                let start = attributes["startDate"] as? String ?? "0000-00-00"
                let end = attributes["endDate"] as? String ?? "9999-99-99"
                guard start <= day, day < end, let pointID = (point?["data"] as? [String: Any])?["id"] as? String,
                    let amount = points[pointID], let code = territory?["id"] as? String, let currency = currencies[code]
                else { continue }
                candidates["\(owner) \(code)", default: []].append("\(amount) \(currency)")
            }
        }
        return candidates.compactMapValues { $0.count == 1 ? $0[0] : nil }
    }

    /// Every price in effect reads as its customerPrice in the currency its territory names, on a
    /// day before and a day after the territories' prices changed on 2023-05-09; a territory whose
    /// currency has changed since is left out, never shown in the new currency.
    @Test(arguments: ["2023-01-01", "2023-06-01"])
    func everyPriceIsItsCustomerPrice(_ day: String) throws {
        let files = try AppStoreConnectCatalog.responseFiles(in: responsesFolder)
        let parts = day.split(separator: "-").compactMap { Int($0) }
        let date = Date(timeIntervalSince1970: TimeInterval(CivilTime.daysFromEpoch(parts[0], parts[1], parts[2]) * 86_400))
        let catalog = try AppStoreConnectCatalog(contentsOf: files, effectiveOn: date)
        var read: [String: Price] = [:]
        for product in catalog.products.products {
            for (id, price) in product.prices {
                read["\(product.id) \(try Storefront(String(id)).countryCode)"] = price
            }
        }
        let expected = try Self.expected(on: day, files: files)
        #expect(expected.count > 100, "the oracle found \(expected.count) prices")
        var compared = 0
        for (key, given) in expected.sorted(by: { $0.key < $1.key }) {
            let territory = String(key.split(separator: " ")[1])
            let storefront = try Storefront(territory)
            let (amount, currency) = (String(given.split(separator: " ")[0]), String(given.split(separator: " ")[1]))
            guard let price = read[key] else {
                // Only a territory the responses price in another currency than the store's today.
                #expect(currency != storefront.currency.code, "\(key): \(given) was not read")
                #expect(
                    catalog.notes.contains { $0.hasPrefix("\(territory): the responses give prices in \(currency)") },
                    "\(key): \(given) was not read, and no note says why")
                continue
            }
            // The amount, and the currency it is shown in: the territory's in the responses.
            #expect(
                Decimal(string: price.amount) == Decimal(string: amount) && price.currency.code == currency,
                "\(key): read \(price.amount) \(price.currency.code), the file says \(given)")
            compared += 1
        }
        #expect(read.count == compared, "read \(read.count) prices, of which \(compared) the oracle knows")
        // And they render, in every storefront.
        let rows = try CatalogRenderer(targets: Storefront.all.map { RenderTarget(storefront: $0) }).render(catalog.products.products)
        #expect(rows.rows.count == compared)
    }
}
