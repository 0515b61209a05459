import Foundation
@testable import StorePrice
import TestSupport
import Testing

/// Xcode StoreKit configuration files from public repositories, in `../shared/realworld/storekit/`
/// beside this repository (as in CI). Their counts are checked against the table in that folder's
/// `SOURCES.md`, which was written from the files by hand, not by StorePrice.
private let realWorldFolder = repositoryFile("../shared/realworld/storekit")

@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: realWorldFolder.appendingPathComponent("../SOURCES.md").path),
        "../shared/realworld/storekit is not beside the repository"))
struct RealWorldStoreKitTests {
    static let folder = realWorldFolder

    /// What SOURCES.md says a file holds.
    struct Expected: CustomStringConvertible {
        var file: String
        var products: Int
        var introductory: Int
        var promotional: Int
        var offerCodes: Int
        var isPropertyList: Bool
        var description: String { file }
    }

    static func expectations() throws -> [Expected] {
        let text = try String(contentsOf: folder.appendingPathComponent("../SOURCES.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line -> Expected? in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count > 6, cells[1].hasPrefix("`"), cells[1].hasSuffix(".storekit`") else { return nil }
            let content = cells[6]
            // "1 consumable, 4 auto-renewable (P1M/P1Y), 2 intro (free); localizations en_US"
            let parts = content.split { $0 == "," || $0 == ";" }.map { $0.trimmingCharacters(in: .whitespaces) }
            func count(_ kind: String) -> Int {
                for part in parts {
                    let words = part.split(separator: " ", maxSplits: 1)
                    if words.count == 2, let number = Int(words[0]), words[1].hasPrefix(kind) { return number }
                }
                return 0
            }
            let products = count("consumable") + count("non-consumable") + count("non-renewing") + count("auto-renewable")
            return Expected(
                file: String(cells[1].dropFirst().dropLast()), products: products, introductory: count("intro"),
                promotional: count("promotional"), offerCodes: count("offer codes"),
                isPropertyList: content.hasPrefix("XML property list"))
        }
    }

    @Test func sourcesListsFortyFilesOneOfThemAPropertyList() throws {
        let expected = try Self.expectations()
        #expect(expected.count == 40)
        #expect(expected.filter(\.isPropertyList).map(\.file) == ["Jannik-1403__Garten-Simulation__Purchases.storekit"])
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".storekit") }
        #expect(Set(onDisk) == Set(expected.map(\.file)))
    }

    @Test func everyFileRendersWithEveryProductPeriodAndOffer() throws {
        var checked = 0
        for expected in try Self.expectations() where !expected.isPropertyList {
            let path = Self.folder.appendingPathComponent(expected.file).path
            let configuration = try StoreKitConfiguration(contentsOfFile: path)
            let products = try Catalog.load(path)
            let terms = products.compactMap(\.subscription)
            #expect(products.count == expected.products, "\(expected): products")
            // SOURCES counts subscriptions with an introductory offer; format 5 files may hold one per billing plan.
            #expect(terms.filter { !$0.introductoryOffers.isEmpty }.count == expected.introductory, "\(expected): introductory")
            #expect(terms.reduce(0) { $0 + $1.promotionalOffers.count } == expected.promotional, "\(expected): promotional")
            #expect(terms.reduce(0) { $0 + $1.offerCodes.count } == expected.offerCodes, "\(expected): offer codes")

            // For its own storefront, each file shows every product, every offer and a title
            // wherever the product has a localized name.
            let home = configuration.storefront
            var rows = 0
            var shownOffers = 0
            var source = ProductList(products)
            let renderer = CatalogRenderer(targets: RenderTarget.storefronts([home]), workers: 1)
            let report = try renderer.render(&source) { batch in
                for position in batch.indices {
                    rows += 1
                    let product = batch.products.first { $0.id == batch.productID(at: position) }
                    let named = product?.titles.values.contains { !$0.isEmpty } ?? false
                    #expect(!named || !(batch.title(at: position) ?? "").isEmpty, "\(expected): \(batch.productID(at: position)) has no title")
                    shownOffers += try batch.subscriptionText(at: position)?.offers.count ?? 0
                }
            }
            #expect(report.invalidProducts.isEmpty, "\(expected): \(report.invalidProducts)")
            #expect(rows == expected.products, "\(expected): rows")
            let withPrice = terms.flatMap(\.offers).filter { $0.paymentMode == .freeTrial || $0.prices[home.numericID] != nil }
            #expect(shownOffers == withPrice.count, "\(expected): offers shown")

            // Every storefront and every built-in account renders (other storefronts have no
            // price, which is an invalid product, not an error).
            for targets in [RenderTarget.storefronts(Storefront.all), RenderTarget.accounts(TestAccountFile.builtIn.accounts)] {
                var all = ProductList(products)
                _ = try CatalogRenderer(targets: targets, workers: 2).render(&all) { batch in
                    for position in batch.indices { _ = try batch.subscriptionText(at: position) }
                }
            }
            checked += 1
        }
        #expect(checked == 39)
    }

    @Test func formatFiveIntroductoryOffersAndBillingPlansAreReadPerPlan() throws {
        let path = Self.folder.appendingPathComponent(
            "RevenueCat__purchases-ios__RevenueCat_IntegrationPurchaseTesterConfiguration.storekit").path
        let product = try #require(try Catalog.load(path).first { $0.id == "com.revenuecat.sampleapp.monthly.12mocommitment" })
        let terms = try #require(product.subscription)
        #expect(terms.introductoryOffers.map { "\($0.billingPlan ?? "-") \($0.paymentMode) \($0.period)" } == [
            "BILLED_UPFRONT freeTrial P1M", "MONTHLY freeTrial P2M",
        ])
        #expect(terms.promotionalOffers.map { $0.id ?? "" } == ["upfront.promo.offer", "12mocommitment.promo.offer"])
        let usa = try Storefront("USA").numericID
        #expect(terms.billingPlans.map { "\($0.type) \($0.prices[usa]?.amount ?? "-") \($0.commitmentPrices[usa]?.amount ?? "-")" } == [
            "BILLED_UPFRONT 0.99 0.99", "MONTHLY 0.5 6",
        ])
    }

    @Test func theXMLPropertyListIsRefusedAsNotAStoreKitConfiguration() {
        let path = Self.folder.appendingPathComponent("Jannik-1403__Garten-Simulation__Purchases.storekit").path
        #expect {
            try StoreKitConfiguration(contentsOfFile: path)
        } throws: { error in
            expectBytes(
                String(describing: error),
                "catalog '\(shownInMessage(path: path))': this is an XML property list, not an Xcode StoreKit configuration; "
                    + "Xcode writes .storekit files as JSON")
            return true
        }
    }

    @Test func theRealProductListsThatAreDictionariesSaySo() throws {
        let lists = repositoryFile("../shared/realworld/product-lists")
        for name in ["russell-archer__SKHelper__quickstart-products.plist", "russell-archer__StoreHelper__SampleProducts.plist"] {
            let path = lists.appendingPathComponent(name).path
            #expect {
                try ProductIDList(contentsOfFile: path)
            } throws: { error in
                expectBytes(
                    String(describing: error),
                    "product list '\(shownInMessage(path: path))': the top level is a dictionary (<dict>), not an array; a product list is a "
                        + "flat array of product ID strings, such as <array><string>com.example.level1</string></array>")
                return true
            }
        }
    }
}
