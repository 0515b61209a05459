/// What every worker of a bulk run reads and never changes: the catalog's columns, the targets as
/// indices, the formatters, the row layout and the storefront-code table.
final class BulkPlan: Sendable {
    /// The catalog file, as named in errors.
    let source: String
    let columns: (product: Int, storefront: Int, price: Int)
    let layout: RowLayout
    let targets: [RenderTarget]
    /// Every storefront, by index: `Storefront.all`.
    let storefronts: [Storefront]
    /// Each storefront's currency, as an index into `currencies`.
    let storefrontCurrency: [Int]
    let currencies: [CurrencyCode]
    /// Each target's storefront, as an index into `storefronts`.
    let targetStorefront: [Int]
    /// The storefronts of the targets, each once, as indices into `storefronts`.
    let targetStorefronts: [Int]
    /// Whether a target shows each storefront's prices.
    let storefrontIsTarget: [Bool]
    /// Each target's (price locale, currency) pair, as an index into `formatters`: the formatted
    /// prices of a pair are kept together, numbered by the currency's amounts.
    let targetPair: [Int]
    let formatters: [PriceFormatter]
    /// Builds each formatter once, before its first use.
    let compilation: FormatterCompilation
    /// Storefront indices by upper-case alpha-3 code, `(c0 - 65) * 676 + (c1 - 65) * 26 + (c2 - 65)`;
    /// -1 for none.
    let alpha3: [Int16]
    let storefrontIndexByID: [Int: Int]
    /// Storefront indices by numeric ID less `storefrontIDBase`, -1 for none: for products in
    /// memory, which name storefronts by ID.
    let storefrontIndexByOffset: [Int32]
    let storefrontIDBase: Int
    /// Only these products are rendered, when given.
    let wanted: ProductIDSet?
    /// Currency display and rounding.
    let options: PriceFormatter.Options
    /// The distinct title chains of the targets, and each target's, by index; empty for a catalog
    /// without titles.
    let chains: [TitleChain]
    let targetChain: [Int]
    /// Whether the run hands rows as values (``RenderedBatch``) rather than encoded bytes.
    let handsRows: Bool
    /// Whether the chunks are read into products, rendering nothing: a catalog reader's.
    let readsProducts: Bool
    /// The formatted prices that rows as values refer to: every price of a run handing rows, and
    /// those of the products another run encodes with ``RowEncoder`` (subscriptions).
    let priceStore = PriceStore()
    /// The subscription texts of the run's rows.
    let subscriptionTexts = SubscriptionTextCache()
    /// The products of the catalog's lines that the JSON Lines reader's parser reads.
    let parsedLines = ParsedLineCache()

    /// - Parameters:
    ///   - titles: whether the catalog's products may have titles (JSON Lines, products): only
    ///     then are the targets' title chains made.
    ///   - handsRows: whether the run hands rows as values rather than encoded bytes.
    ///   - readsProducts: whether chunks are read into products, rendering nothing.
    init(
        source: String, columns: (product: Int, storefront: Int, price: Int), layout: RowLayout,
        targets: [RenderTarget], options: PriceFormatter.Options, wanted: ProductIDSet?, titles: Bool,
        handsRows: Bool = false, readsProducts: Bool = false
    ) throws(StorePriceError) {
        self.source = source
        self.handsRows = handsRows
        self.readsProducts = readsProducts
        self.columns = columns
        self.layout = layout
        self.targets = targets
        self.wanted = wanted
        self.options = options
        var chains: [TitleChain] = []
        targetChain = !titles ? [] : targets.map { target in
            let chain = target.titleChain
            if let known = chains.firstIndex(of: chain) { return known }
            chains.append(chain)
            return chains.count - 1
        }
        self.chains = chains
        var storefronts = Storefront.all
        // A target's storefront is one of these; kept whole in case it is not.
        for target in targets where !storefronts.contains(where: { $0.id == target.storefront.id }) {
            storefronts.append(target.storefront)
        }
        self.storefronts = storefronts
        var currencies: [CurrencyCode] = []
        var currencyIndex: [CurrencyCode: Int] = [:]
        storefrontCurrency = storefronts.map { storefront in
            if let known = currencyIndex[storefront.currency] { return known }
            currencyIndex[storefront.currency] = currencies.count
            currencies.append(storefront.currency)
            return currencies.count - 1
        }
        self.currencies = currencies
        var byID: [Int: Int] = [:]
        var alpha3 = [Int16](repeating: -1, count: 26 * 26 * 26)
        for (index, storefront) in storefronts.enumerated() {
            if byID[storefront.numericID] == nil { byID[storefront.numericID] = index }
            let code = Array(storefront.countryCode.utf8)
            if code.count == 3, code.allSatisfy({ $0 >= 65 && $0 <= 90 }) {
                let key = Int(code[0] - 65) * 676 + Int(code[1] - 65) * 26 + Int(code[2] - 65)
                if alpha3[key] < 0 { alpha3[key] = Int16(index) }
            }
        }
        self.alpha3 = alpha3
        storefrontIndexByID = byID
        storefrontIDBase = byID.keys.min() ?? 0
        var byOffset = [Int32](repeating: -1, count: (byID.keys.max() ?? 0) - storefrontIDBase + 1)
        for (id, index) in byID { byOffset[id - storefrontIDBase] = Int32(index) }
        storefrontIndexByOffset = byOffset
        targetStorefront = targets.map { byID[$0.storefront.numericID] ?? 0 }
        var seen = Set<Int>()
        targetStorefronts = targetStorefront.filter { seen.insert($0).inserted }
        var shown = [Bool](repeating: false, count: storefronts.count)
        for storefront in targetStorefronts { shown[storefront] = true }
        storefrontIsTarget = shown

        struct Pair: Hashable {
            var locale: PriceLocale
            var currency: Int
        }
        var pairs: [Pair: Int] = [:]
        var formatters: [PriceFormatter] = []
        var targetPair: [Int] = []
        for (index, target) in targets.enumerated() {
            let pair = Pair(locale: target.priceLocale, currency: storefrontCurrency[targetStorefront[index]])
            if let known = pairs[pair] {
                targetPair.append(known)
                continue
            }
            pairs[pair] = formatters.count
            targetPair.append(formatters.count)
            formatters.append(try PriceFormatter(locale: target.priceLocale, options: options, buildsAtOnce: true))
        }
        self.targetPair = targetPair
        self.formatters = formatters
        compilation = FormatterCompilation(formatters)
    }
}
