import Foundation
import StorePrice
import TestSupport
import Testing

@Suite struct CatalogRendererTests {
    static let sample = repositoryFile("Data/catalog-sample.jsonl").path

    /// Every row as one line of text, to compare runs byte for byte.
    func renderLines(workers: Int, batchSize: Int = 4, targets: [RenderTarget], ids: ProductIDList? = nil) throws
        -> (lines: [String], report: RenderReport)
    {
        var source = try Catalog.open(Self.sample)
        let renderer = CatalogRenderer(targets: targets, workers: workers, batchSize: batchSize)
        var lines: [String] = []
        let report = try renderer.render(&source, productIDs: ids) { rows in
            for (position, row) in zip(rows.indices, rows) {
                lines.append(
                    [row.productID, rows.target(at: position).description, row.priceLocale.identifier, row.price.amount,
                     row.formatted, row.title ?? "-"].joined(separator: "\t"))
            }
        }
        return (lines, report)
    }

    @Test func givesTheSameRowsWithOneWorkerOrMany() throws {
        let targets = RenderTarget.accounts(TestAccountFile.builtIn.accounts)
        let one = try renderLines(workers: 1, targets: targets)
        // 31 products for 181 accounts; the starter bundle is not sold in CHN, the gift card not in RUS or BLR.
        #expect(one.lines.count == 31 * 181 - 3)
        for workers in [2, 3, 8] {
            let many = try renderLines(workers: workers, targets: targets)
            #expect(many.lines == one.lines, "\(workers) workers")
            #expect(many.report.invalidProducts == one.report.invalidProducts)
        }
    }

    @Test func rowsComeInCatalogThenTargetOrder() throws {
        let targets = RenderTarget.storefronts([try Storefront("JPN"), try Storefront("USA")])
        let result = try renderLines(workers: 2, targets: targets)
        expectBytes(result.lines[0], "com.example.coins.100\tJPN\tja_JP@currency=JPY\t160\t\u{FFE5}160\t100コイン")
        expectBytes(result.lines[1], "com.example.coins.100\tUSA\ten_US@currency=USD\t0.99\t$0.99\t100 Coins")
        expectBytes(result.lines[2], "com.example.coins.550\tJPN\tja_JP@currency=JPY\t800\t\u{FFE5}800\t550コイン")
        expectBytes(result.lines.last ?? "", "com.example.welcome.gift\tUSA\ten_US@currency=USD\t0\t$0.00\tWelcome Gift")
    }

    @Test func reportsProductsTheStoreWouldCallInvalid() throws {
        let targets = RenderTarget.storefronts([try Storefront("CHN"), try Storefront("RUS"), try Storefront("USA")])
        let ids = try ProductIDList(contentsOfFile: repositoryFile("Data/products-sample.json").path)
        let result = try renderLines(workers: 2, targets: targets, ids: ids)
        #expect(result.report.invalidProducts == [
            InvalidProduct(productID: "com.example.starter.bundle", reason: .noPrice(storefronts: ["CHN"])),
            InvalidProduct(productID: "com.example.level99", reason: .notInCatalog),
        ])
        #expect(result.report.products == 6)
        #expect(result.lines.count == 5 * 3 + 2)
        #expect(result.report.invalidProducts.map(\.description) == [
            "com.example.starter.bundle: no price in CHN", "com.example.level99: not in the catalog",
        ])
    }

    /// With one worker: two workers meeting a new price at the same moment may each format it.
    @Test func formatsEachDistinctPriceOnce() throws {
        // Targets in an order no other test renders: a run of the same targets and options
        // elsewhere in the process leaves tables this run would reuse, formatting fewer.
        let targets = RenderTarget.storefronts(Storefront.all.reversed())
        let result = try renderLines(workers: 1, targets: targets)
        let distinct = Set(result.lines.map { $0.split(separator: "\t").dropFirst(2).prefix(2).joined(separator: " ") })
        #expect(result.report.distinctPrices == distinct.count)
        #expect(result.report.rows == result.lines.count)
    }

    @Test(arguments: [
        ("CHN", "com.example.coins.100", "100 金币"),
        ("TWN", "com.example.level1", "第 1 關"),
        ("GBR", "com.example.theme.dark", "Dark Colour Theme"),
        ("USA", "com.example.theme.dark", "Dark Color Theme"),
        ("AUS", "com.example.theme.ocean", "Ocean Color Theme"),
        ("MEX", "com.example.hints.5", "5 pistas"),
        ("BRA", "com.example.removeads", "Remover anúncios"),
        // No pt-PT title: Portuguese of another region comes before English, as StoreKit chooses.
        ("PRT", "com.example.removeads", "Remover anúncios"),
        ("JPN", "com.example.removeads", "Remove Ads"),
    ])
    func titlesFollowTheStoreLanguageThenItsOtherRegionsThenEnglish(_ code: String, _ product: String, _ title: String) throws {
        let result = try renderLines(workers: 1, targets: RenderTarget.storefronts([try Storefront(code)]))
        let line = try #require(result.lines.first { $0.hasPrefix(product + "\t") })
        expectBytes(String(line.split(separator: "\t").last ?? ""), title, code)
    }

    @Test func accountsUseTheirStoreLanguageNotTheirDevice() throws {
        let accounts = try ["can-fr", "jpn-en-device", "usa-en-gb-device"].map { try TestAccountFile.builtIn.account(named: $0) }
        let result = try renderLines(workers: 1, targets: RenderTarget.accounts(accounts))
        let removeAds = result.lines.filter { $0.hasPrefix("com.example.removeads\t") }
        #expect(removeAds == [
            "com.example.removeads\tcan-fr (CAN)\tfr_CA@currency=CAD\t4.99\t4,99\u{00A0}$\tRetirer les annonces",
            "com.example.removeads\tjpn-en-device (JPN)\tja_JP@currency=JPY\t500\t\u{FFE5}500\tRemove Ads",
            "com.example.removeads\tusa-en-gb-device (USA)\ten_US@currency=USD\t2.99\t$2.99\tRemove Ads",
        ])
    }

    @Test func rendersProductsInMemory() throws {
        let product = try Product(
            id: "com.example.x", prices: [Storefront("USA"): "1.99", Storefront("DEU"): "1.99"], titles: ["de_DE": "X"])
        var source = ProductList([product])
        let renderer = CatalogRenderer(targets: RenderTarget.storefronts([try Storefront("DEU"), try Storefront("USA")]))
        var rows: [RenderedRow] = []
        _ = try renderer.render(&source) { rows += $0 }
        #expect(rows.map(\.formatted) == ["1,99\u{00A0}€", "$1.99"])
        #expect(rows.map(\.title) == ["X", nil])
    }

    @Test func staysCorrectWhenNoPriceRepeats() throws {
        // 1,600 products × 175 storefronts, every price distinct: more distinct prices than the
        // run's store keeps (262,144), so the last ones are kept with their batch instead.
        let storefronts = Storefront.all
        var products: [Product] = []
        for index in 0..<1_600 {
            var prices: [Int: Price] = [:]
            for (offset, storefront) in storefronts.enumerated() {
                let units = Int64(index * 1_000 + offset)
                prices[storefront.numericID] = Price(minorUnits: units, currency: storefront.currency)
            }
            products.append(try Product(id: "p\(index)", prices: prices))
        }
        var source = ProductList(products)
        let renderer = CatalogRenderer(targets: RenderTarget.storefronts(storefronts), workers: 2, batchSize: 64)
        let formatters = try storefronts.map { try PriceFormatter(locale: $0.priceLocale) }
        var checked = 0
        var mismatches: [String] = []
        let report = try renderer.render(&source) { rows in
            for position in rows.indices {
                // Rows come in product order, then storefront order: row n is product n / 175 in
                // storefront n % 175, and its text is that price's, formatted alone.
                let product = products[checked / storefronts.count]
                let storefront = storefronts[checked % storefronts.count]
                let row = rows[position]
                let expected = try formatters[checked % storefronts.count].format(#require(product.prices[storefront.numericID]))
                if row.productID != product.id || row.storefront != storefront || row.formatted != expected {
                    mismatches.append("row \(checked): \(row.productID) \(row.storefront.countryCode) \(escaped(row.formatted))")
                }
                checked += 1
            }
        }
        #expect(report.rows == 1_600 * 175)
        // Every price is new to the run, unless another test in the process rendered the same
        // targets with a few of the same amounts first and the run reused those tables; either
        // way the store (262,144 slots) overflowed.
        #expect(report.distinctPrices > 262_144 && report.distinctPrices <= 1_600 * 175)
        #expect(checked == 1_600 * 175)
        #expect(mismatches.isEmpty, "\(mismatches.count) rows differ; first: \(mismatches.prefix(3))")
    }

    @Test func refusesAPriceInAnotherCurrency() throws {
        #expect {
            try Product(id: "x", prices: [143462: Price("0.99", currency: CurrencyCode("USD"))])
        } throws: { error in
            String(describing: error).hasPrefix("price 0.99 USD is in USD, but price locale 'ja_JP@currency=JPY' shows JPY")
        }
    }
}

@Suite struct ProcessorCountTests {
    @Test func aCgroupQuotaIsRoundedUpAndNoQuotaIsNil() throws {
        let directory = try temporaryDirectory()
        try "150000 100000\n".write(to: directory.appendingPathComponent("cpu.max"), atomically: true, encoding: .utf8)
        #expect(ProcessorCount.cgroupQuota(root: directory.path) == 2)
        try "max 100000\n".write(to: directory.appendingPathComponent("cpu.max"), atomically: true, encoding: .utf8)
        #expect(ProcessorCount.cgroupQuota(root: directory.path) == nil)
        let v1 = try temporaryDirectory()
        try FileManager.default.createDirectory(at: v1.appendingPathComponent("cpu"), withIntermediateDirectories: true)
        try "50000\n".write(to: v1.appendingPathComponent("cpu/cpu.cfs_quota_us"), atomically: true, encoding: .utf8)
        try "100000\n".write(to: v1.appendingPathComponent("cpu/cpu.cfs_period_us"), atomically: true, encoding: .utf8)
        #expect(ProcessorCount.cgroupQuota(root: v1.path) == 1)
    }

    @Test func theAffinityMaskIsCounted() throws {
        let directory = try temporaryDirectory()
        let status = directory.appendingPathComponent("status")
        try "Name:\tx\nCpus_allowed:\t00000000,0000000d\nCpus_allowed_list:\t0,2-3\n".write(to: status, atomically: true, encoding: .utf8)
        #expect(ProcessorCount.affinityCount(status: status.path) == 3)
    }
}
