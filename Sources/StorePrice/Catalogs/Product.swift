import ICUNumberFormat

/// A product in a catalog: an ID, localized text, and one price per storefront.
///
/// There is no base price and no conversion: a storefront without a price does not sell the
/// product, and rendering it for that storefront reports it as an invalid product.
///
/// ```swift
/// let level1 = try Product(
///     id: "com.example.level1",
///     prices: [Storefront("USA"): "0.99", Storefront("JPN"): "160"],
///     titles: ["en": "Level 1", "ja": "レベル1"])
/// ```
public struct Product: Hashable, Sendable {
    /// The product identifier, such as `com.example.level1`.
    public let id: String
    /// Titles by language tag (`en`, `ja`, `zh-Hant`, `fr-CA`), with `-` separators.
    public let titles: [String: String]
    /// Descriptions by language tag.
    public let descriptions: [String: String]
    /// The period and offers of an auto-renewable subscription; nil for other products.
    public let subscription: SubscriptionTerms?
    /// Where the prices were read, when the product came from a catalog file.
    let origin: ProductOrigin?
    /// The title language to use when none matches the store language: the file's default
    /// localization (a `.storekit` file's `_locale`), or nil.
    let defaultTitleLanguage: String?
    /// The prices as (storefront ID, packed amount), sorted by ID: what the renderer reads per
    /// product, and the prices themselves, 16 bytes each (a catalog of 10,000 products priced
    /// in 175 storefronts holds 1.75 million).
    let packedPrices: [PackedPrice]
    /// The prices whose amounts are longer than 8 bytes, which do not pack, by storefront ID.
    let longPrices: [Int: Price]

    struct PackedPrice: Hashable, Sendable {
        let storefrontID: Int32
        /// ``PackedAmount/pack(_:)`` of the amount; 0 when it is longer than 8 bytes.
        let amount: UInt64
    }

    /// Prices by storefront ID (``Storefront/id``); each price is in its storefront's currency.
    ///
    /// Made from the product's packed prices on each call: for one storefront's price, ask
    /// ``price(inStorefront:)``.
    public var prices: [Int: Price] {
        var prices: [Int: Price] = [:]
        prices.reserveCapacity(packedPrices.count)
        for entry in packedPrices {
            let id = Int(entry.storefrontID)
            prices[id] = price(entry)
        }
        return prices
    }

    /// The price in a storefront, by its ID (``Storefront/numericID``), or nil where the product
    /// is not sold.
    public func price(inStorefront storefrontID: Int) -> Price? {
        packedPrice(inStorefront: storefrontID).flatMap(price)
    }

    /// The packed price in a storefront, found by binary search.
    func packedPrice(inStorefront storefrontID: Int) -> PackedPrice? {
        var low = 0
        var high = packedPrices.count
        let id = Int32(truncatingIfNeeded: storefrontID)
        while low < high {
            let middle = (low + high) / 2
            if packedPrices[middle].storefrontID < id { low = middle + 1 } else { high = middle }
        }
        guard low < packedPrices.count, packedPrices[low].storefrontID == id, Int(id) == storefrontID else { return nil }
        return packedPrices[low]
    }

    /// The price of a packed entry.
    private func price(_ entry: PackedPrice) -> Price? {
        let id = Int(entry.storefrontID)
        guard entry.amount != 0 else { return longPrices[id] }
        guard let currency = StorefrontTable.shared.currency(ofNumericID: id) else { return nil }
        return Price(packed: entry.amount, currency: currency)
    }

    /// Creates a product from prices already made.
    ///
    /// - Throws: ``StorePriceError/currencyMismatch(price:locale:)`` when a price is not in its
    ///   storefront's currency.
    public init(
        id: String, prices: [Int: Price], titles: [String: String] = [:], descriptions: [String: String] = [:],
        subscription: SubscriptionTerms? = nil
    ) throws(StorePriceError) {
        for (storefrontID, price) in prices {
            let storefront = try Storefront(String(storefrontID))
            guard price.currency == storefront.currency else {
                throw .currencyMismatch(price: price, locale: storefront.priceLocale)
            }
        }
        try Self.check(id: id, titles: titles, descriptions: descriptions)
        self.init(checkedID: id, prices: prices, titles: titles, descriptions: descriptions, subscription: subscription)
    }

    /// Creates a product from decimal price text per storefront, each in its storefront's currency.
    public init(
        id: String, prices: [Storefront: String], titles: [String: String] = [:], descriptions: [String: String] = [:],
        subscription: SubscriptionTerms? = nil
    ) throws(StorePriceError) {
        var made: [Int: Price] = [:]
        for (storefront, text) in prices {
            made[storefront.numericID] = try Price(text, currency: storefront.currency)
        }
        try Self.check(id: id, titles: titles, descriptions: descriptions)
        self.init(checkedID: id, prices: made, titles: titles, descriptions: descriptions, subscription: subscription)
    }

    /// Creates a product from decimal price text keyed by storefront code: alpha-3 (`USA`),
    /// alpha-2 (`US`) or numeric ID (`143441`), as a request body or a JSON catalog line has them.
    ///
    /// ```swift
    /// let coins = try Product(id: "com.example.coins", prices: ["USA": "4.99", "JPN": "160"])
    /// coins.pricesByStorefront["JPN"]?.amount  // "160"
    /// ```
    ///
    /// - Throws: ``StorePriceError/unknownStorefront(_:suggestions:)`` for a code no storefront
    ///   has, ``StorePriceError/invalidAmount(_:reason:)`` for text that is no amount; two codes
    ///   of one storefront (`US` and `USA`) are ``StorePriceError/invalidCatalog(source:line:field:reason:)``.
    public init(
        id: String, prices: [String: String], titles: [String: String] = [:], descriptions: [String: String] = [:],
        subscription: SubscriptionTerms? = nil
    ) throws(StorePriceError) {
        var made: [Int: Price] = [:]
        for code in prices.keys.sorted() {
            guard let text = prices[code] else { continue }
            let storefront = try Storefront(code)
            guard made[storefront.numericID] == nil else {
                throw .invalidCatalog(
                    source: "product '\(id.escapedForMessage)'", line: nil, field: "prices.\(code.escapedForMessage)",
                    reason: "a second price for \(storefront.countryCode)")
            }
            made[storefront.numericID] = try Price(text, currency: storefront.currency)
        }
        try Self.check(id: id, titles: titles, descriptions: descriptions)
        self.init(checkedID: id, prices: made, titles: titles, descriptions: descriptions, subscription: subscription)
    }

    /// What a catalog line's product must be too: an ID, and one text per language (`zh-Hant`
    /// and `zh_hant` are one language).
    private static func check(id: String, titles: [String: String], descriptions: [String: String]) throws(StorePriceError) {
        guard !id.isEmpty else {
            throw .invalidCatalog(source: "product", line: nil, field: "id", reason: "empty; a product has an ID")
        }
        for (field, texts) in [("titles", titles), ("descriptions", descriptions)] {
            var tags = LanguageTagSet()
            for tag in texts.keys.sorted() {
                if let reason = tags.insert(tag) {
                    throw .invalidCatalog(source: "product '\(id.escapedForMessage)'", line: nil, field: field, reason: reason)
                }
            }
        }
    }

    /// The prices keyed by storefront alpha-3 code (`USA`), as JSON Lines rows name storefronts.
    public var pricesByStorefront: [String: Price] {
        var byCode: [String: Price] = [:]
        for entry in packedPrices {
            let storefrontID = Int(entry.storefrontID)
            guard let price = price(entry) else { continue }
            if let storefront = try? Storefront(String(storefrontID)) { byCode[storefront.countryCode] = price }
        }
        return byCode
    }

    init(
        checkedID id: String, prices: [Int: Price], titles: [String: String], descriptions: [String: String],
        subscription: SubscriptionTerms? = nil, origin: ProductOrigin? = nil, defaultTitleLanguage: String? = nil
    ) {
        self.init(
            checkedID: id, priceList: prices.map { ($0.key, $0.value) }, titles: titles, descriptions: descriptions,
            subscription: subscription, origin: origin, defaultTitleLanguage: defaultTitleLanguage)
    }

    /// A product from its prices packed and sorted by storefront ID, each storefront once, and
    /// those too long to pack.
    init(
        checkedID id: String, packedPrices: [PackedPrice], longPrices: [Int: Price], titles: [String: String],
        descriptions: [String: String], subscription: SubscriptionTerms? = nil, origin: ProductOrigin? = nil,
        defaultTitleLanguage: String? = nil
    ) {
        self.id = id
        self.origin = origin
        self.defaultTitleLanguage = defaultTitleLanguage.map(Self.normalizedTag)
        self.subscription = subscription
        self.packedPrices = packedPrices
        self.longPrices = longPrices
        self.titles = Self.normalizedTags(titles)
        self.descriptions = Self.normalizedTags(descriptions)
    }

    /// A product from its prices as (storefront ID, price), each storefront once, in any order.
    init(
        checkedID id: String, priceList: [(Int, Price)], titles: [String: String], descriptions: [String: String],
        subscription: SubscriptionTerms? = nil, origin: ProductOrigin? = nil, defaultTitleLanguage: String? = nil
    ) {
        self.id = id
        self.origin = origin
        self.defaultTitleLanguage = defaultTitleLanguage.map(Self.normalizedTag)
        self.subscription = subscription
        var long: [Int: Price] = [:]
        var packed: [PackedPrice] = []
        packed.reserveCapacity(priceList.count)
        for (storefrontID, price) in priceList {
            let amount = PackedAmount.pack(price.amount)
            if amount == 0 { long[storefrontID] = price }
            packed.append(PackedPrice(storefrontID: Int32(truncatingIfNeeded: storefrontID), amount: amount))
        }
        packed.sort { $0.storefrontID < $1.storefrontID }
        self.packedPrices = packed
        self.longPrices = long
        self.titles = Self.normalizedTags(titles)
        self.descriptions = Self.normalizedTags(descriptions)
    }

    /// The title for a store language, chosen as StoreKit chooses a localization:
    ///
    /// 1. the store language's own tags, most specific first (`zh-Hant-TW`, `zh-TW`, `zh-Hant`, `zh`);
    /// 2. another region of the same language and script (`en-GB` for the USA's `en_US`; never
    ///    `zh-Hans` for `zh_Hant_TW`), the first in byte order;
    /// 3. the file's default localization (``defaultTitleLanguage``: a `.storekit` file's
    ///    `_locale`, or else its first localization);
    /// 4. for catalogs without a default, English (`en-US`, then `en`).
    func title(following chain: TitleChain) -> String? {
        Self.title(in: titles, defaultLanguage: defaultTitleLanguage, following: chain)
    }

    /// The title ``title(following:)`` chooses among titles by normalized tag.
    static func title(in titles: [String: String], defaultLanguage: String?, following chain: TitleChain) -> String? {
        guard !titles.isEmpty else { return nil }
        if titles.count <= 4 {
            // A few titles: compared with the chain's tags, which costs less than hashing each tag.
            var best: (rank: Int, title: String)?
            for (tag, title) in titles {
                if let rank = chain.tags.firstIndex(of: tag), rank < best?.rank ?? Int.max { best = (rank, title) }
            }
            if let best { return best.title }
        } else {
            for tag in chain.tags {
                if let title = titles[tag] { return title }
            }
        }
        let sameLanguage = titles.keys.filter { chain.accepts(otherRegionTag: $0) }
        if let tag = sameLanguage.min(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) { return titles[tag] }
        if let defaultLanguage { return titles[defaultLanguage] }
        return titles["en-US"] ?? titles["en"]
    }

    /// Language tags with `-` separators and canonical case: `en_us` becomes `en-US`.
    static func normalizedTags(_ texts: [String: String]) -> [String: String] {
        guard !texts.isEmpty else { return texts }
        var normalized: [String: String] = [:]
        for (tag, text) in texts { normalized[normalizedTag(tag)] = text }
        return normalized
    }

    static func normalizedTag(_ tag: String) -> String {
        // Most files write tags canonically (`en`, `en-US`, `zh-Hant`): kept as they are.
        isNormalizedTag(tag) ? tag : rebuiltTag(tag)
    }

    /// A tag's parts split at `_` and `-`, cased, and joined with `-`.
    static func rebuiltTag(_ tag: String) -> String {
        let parts = tag.split(omittingEmptySubsequences: true) { $0 == "_" || $0 == "-" }
        return parts.enumerated().map { index, part in
            if index == 0 { return part.asciiLowercased() }
            if part.utf8.count == 4 { return part.asciiTitlecased() }
            return part.asciiUppercased()
        }.joined(separator: "-")
    }
}

extension Product {
    /// Whether `normalizedTag(tag)` is `tag`: parts between `-` none empty, the first without
    /// upper case, four-letter parts title-cased, the others without lower case.
    static func isNormalizedTag(_ tag: String) -> Bool {
        tag.utf8.withContiguousStorageIfAvailable { bytes in
            var part = 0
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "-") {
                    if bytes[end] == UInt8(ascii: "_") { return false }
                    end += 1
                }
                guard end > start else { return false }
                for index in start..<end {
                    let byte = bytes[index]
                    let upper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                    let lower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                    if part == 0 {
                        if upper { return false }
                    } else if end - start == 4 {
                        if index == start ? lower : upper { return false }
                    } else if lower {
                        return false
                    }
                }
                // A tag that ends with `-` has an empty last part.
                if end == bytes.count - 1 { return false }
                part += 1
                start = end + 1
            }
            return part > 0
        } ?? false
    }
}

/// The language tags of a store language that a title is looked up by, most specific first.
///
/// For `zh_CN`, whose likely script is Hans: `zh-Hans-CN`, `zh-CN`, `zh-Hans`, `zh`.
struct TitleChain: Hashable, Sendable {
    let tags: [String]
    let language: String
    let script: String?

    init(priceLocale: PriceLocale) {
        let language = priceLocale.language
        let script = priceLocale.scriptOrLikely
        var tags: [String] = []
        if let script, let region = priceLocale.region {
            tags.append("\(language)-\(script)-\(region)")
        }
        if let region = priceLocale.region { tags.append("\(language)-\(region)") }
        if let script { tags.append("\(language)-\(script)") }
        tags.append(language)
        self.tags = tags
        self.language = language
        self.script = script
    }

    /// Whether a title tag (normalized, such as `en-GB`) is this language in another region,
    /// written in the same script, as ICU's likely subtags give it.
    func accepts(otherRegionTag tag: String) -> Bool {
        // Most titles are in other languages: told apart by their first bytes, without ICU.
        let bytes = tag.utf8
        guard bytes.count > language.utf8.count, bytes.starts(with: language.utf8),
            bytes[bytes.index(bytes.startIndex, offsetBy: language.utf8.count)] == UInt8(ascii: "-")
        else { return false }
        let parts = tag.split(separator: "-")
        guard parts.count > 1, parts[0] == language else { return false }
        let likely = ICU.addingLikelySubtags(to: parts.joined(separator: "_")).split(separator: "_")
        let tagScript = likely.count > 1 && likely[1].utf8.count == 4 ? String(likely[1]) : nil
        return tagScript == script
    }
}

extension LanguageTagSet {
    /// Whether text is a language tag as stores write them (BCP 47, `-` or `_` between subtags):
    /// a language of 2 or 3 letters, then an optional script of 4 letters, an optional region of
    /// 2 letters or 3 digits, and variants of 5 to 8 letters and digits (or 4 starting with a
    /// digit). `English`, `en US` and `123` are not.
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = parts.first, (2...3).contains(language.utf8.count), language.utf8.allSatisfy(\.isASCIILetter) else {
            return false
        }
        var index = 1
        if index < parts.count, parts[index].utf8.count == 4, parts[index].utf8.allSatisfy(\.isASCIILetter) { index += 1 }
        if index < parts.count,
            (parts[index].utf8.count == 2 && parts[index].utf8.allSatisfy(\.isASCIILetter))
                || (parts[index].utf8.count == 3 && parts[index].utf8.allSatisfy(\.isASCIIDigit))
        {
            index += 1
        }
        while index < parts.count {
            let variant = parts[index].utf8
            let alphanumeric = variant.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit }
            guard alphanumeric, (5...8).contains(variant.count) || (variant.count == 4 && variant.first?.isASCIIDigit == true) else {
                return false
            }
            index += 1
        }
        return true
    }
}

/// The language tags of one product's titles or descriptions, as written, refusing two that name
/// the same language once normalized (`en_us` and `en-US`): which one would win is not defined.
struct LanguageTagSet {
    private var written: [String: String] = [:]

    /// Adds a tag; returns why it cannot be added, or nil.
    mutating func insert(_ tag: String) -> String? {
        guard Self.isLanguageTag(tag) else {
            return "'\(tag.escapedForMessage)' is not a language tag, such as en, en-US or zh-Hans"
        }
        let normalized = Product.normalizedTag(tag)
        if let earlier = written[normalized] {
            return "'\(earlier.escapedForMessage)' and '\(tag.escapedForMessage)' are the same language (\(normalized)); keep one"
        }
        written[normalized] = tag
        return nil
    }
}
