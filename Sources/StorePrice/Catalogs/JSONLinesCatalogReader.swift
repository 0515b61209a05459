#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Streams a JSON Lines catalog, one product per line:
///
/// ```json
/// {"product":"com.example.level1","prices":{"USA":"0.99","JPN":"160"},"title":{"en":"Level 1","ja":"レベル1"}}
/// ```
///
/// `prices` maps storefront codes (alpha-3, alpha-2 or numeric ID) to decimal text; JSON numbers are
/// refused, since most JSON tools read them as binary floating point. `title` and `description`
/// map language tags to text. Blank lines are skipped.
///
/// An auto-renewable subscription adds its `period` and, optionally, offers, each with a
/// `payment_mode` (`free`, `payAsYouGo`, `payUpFront`), a `period`, a `period_count` (default 1)
/// and `prices` per storefront (none for a free trial):
///
/// ```json
/// {"product":"com.example.pro.monthly","prices":{"USA":"4.99"},"period":"P1M",
///  "introductory_offer":{"payment_mode":"payAsYouGo","period":"P1M","period_count":3,"prices":{"USA":"0.99"}},
///  "promotional_offers":[{"id":"winback","payment_mode":"free","period":"P1M"}]}
/// ```
///
/// `offer_codes` and `win_back_offers` are arrays of offers in the same form; a promotional or
/// win-back offer needs its `id`. Where a subscription's introductory offer differs between
/// storefronts, as App Store Connect sets one up per territory, `introductory_offers` lists
/// them; a free trial offered in some storefronts only names them,
/// `"storefronts":["USA","JPN"]` (a paid offer is offered where it has a price). Keys are snake_case, as in every StorePrice file and output;
/// an unknown key, such as a camelCase one from StorePrice 0.1.0, is an error naming it.
final class JSONLinesCatalogReader: CatalogSource {
    private var lines: LineReader
    private var parser: JSONLinesLineParser
    private var seen: ProductIDRegistry

    init(path: String, productIDRule rule: ProductIDRule = .appStore) throws(StorePriceError) {
        seen = ProductIDRegistry(rule: rule)
        lines = try LineReader(path: path)
        parser = JSONLinesLineParser(source: lines.path)
    }

    var progress: (done: Int, total: Int?) { (lines.bytesRead, lines.totalBytes) }

    func nextProduct() throws(StorePriceError) -> Product? {
        while let text = try lines.nextLine() {
            if JSONLinesLineParser.isBlank(text) { continue }
            let number = lines.lineNumber
            return try parser.product(text, number: number) { (id) throws(StorePriceError) in
                try seen.register(id, line: number, source: lines.path)
            }
        }
        return nil
    }
}

/// Reads one line of a JSON Lines catalog into a product, with every check and error of
/// ``JSONLinesCatalogReader``: the reader's lines and the bulk pipeline's lines that are not of
/// the usual shape go through it.
struct JSONLinesLineParser {
    /// The catalog, as named in errors.
    let source: String
    private var storefronts = StorefrontCodes()
    private var prices = PriceCache()
    private var amounts = PackedAmountCache()
    private let decoder = JSONDecoder()

    init(source: String) {
        self.source = source
    }

    /// Whether a line holds only spaces and tabs, and is skipped.
    static func isBlank(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    /// The fields a line may have.
    static let fields = [
        "product", "prices", "title", "description", "period", "introductory_offer", "introductory_offers",
        "promotional_offers", "offer_codes", "win_back_offers",
    ]

    /// The fields an offer may have.
    static let offerFields = ["id", "payment_mode", "period", "period_count", "prices", "storefronts"]

    fileprivate struct Line: Decodable {
        var id: FieldValue?
        var prices: [String: FieldValue]?
        /// A simple line's prices as written, each code and amount packed by
        /// ``PackedAmount/pack(_:)``; in place of ``prices``, which is nil then.
        var packedPrices: [(code: UInt64, amount: UInt64)]?
        var title: [String: FieldValue]?
        var description: [String: FieldValue]?
        var period: String?
        var introductoryOffer: Offer?
        var introductoryOffers: [Offer]?
        var promotionalOffers: [Offer]?
        var offerCodes: [Offer]?
        var winBackOffers: [Offer]?

        private enum CodingKeys: String, CodingKey {
            case prices, title, description, period
            case id = "product"
            // Not in JSON: made by `simpleLine(_:)` alone.
            case introductoryOffer = "introductory_offer"
            case introductoryOffers = "introductory_offers"
            case promotionalOffers = "promotional_offers"
            case offerCodes = "offer_codes"
            case winBackOffers = "win_back_offers"
        }
    }

    fileprivate struct Offer: Decodable {
        var id: String?
        var paymentMode: String?
        var period: String?
        var periodCount: Int?
        var prices: [String: FieldValue]?
        var storefronts: [String]?
        /// Every key the offer has, known or not, sorted.
        var keys: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            keys = container.allKeys.map(\.stringValue).sorted()
            id = try container.decodeIfPresent(String.self, forKey: Key("id"))
            paymentMode = try container.decodeIfPresent(String.self, forKey: Key("payment_mode"))
            period = try container.decodeIfPresent(String.self, forKey: Key("period"))
            periodCount = try container.decodeIfPresent(Int.self, forKey: Key("period_count"))
            prices = try container.decodeIfPresent([String: FieldValue].self, forKey: Key("prices"))
            storefronts = try container.decodeIfPresent([String].self, forKey: Key("storefronts"))
        }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    /// The product of line `number`. `register` is called with its ID once the line is known to
    /// name a product and its prices, before they are read: a repeated product is refused there.
    mutating func product(
        _ text: String, number: Int, register: (String) throws(StorePriceError) -> Void
    ) throws(StorePriceError) -> Product {
        if let line = Self.simpleLine(text) {
            if let id = line.id, case .string(let id) = id, !id.isEmpty, let packed = line.packedPrices,
                let (prices, exceptions) = readPackedPrices(packed, number: number)
            {
                try register(id)
                return Product(
                    checkedID: id, packedPrices: prices, longPrices: [:],
                    titles: try texts(line.title, field: "title", line: number),
                    descriptions: try texts(line.description, field: "description", line: number),
                    origin: ProductOrigin(source: source, line: number, fieldPrefix: "prices.", exceptions: exceptions))
            }
            // A line without prices, or with one that cannot be used, or a storefront priced
            // twice (perhaps under one code twice): read as JSON, which names the problem.
            if line.packedPrices == nil { return try product(line, number: number, register: register) }
        }
        // The checks of every line are the cheap ones; the nesting is counted once the decoder
        // has refused a line, to say why in words.
        let bytes = Array(text.utf8)
        if let problem = JSONText.encodingProblem(in: bytes) ?? JSONText.unpairedSurrogateProblem(in: text) {
            throw .invalidCatalog(source: source, line: number, field: nil, reason: problem)
        }
        let line: Line
        do {
            line = try decoder.decode(Line.self, from: Data(bytes))
        } catch {
            if let problem = JSONText.depthProblem(in: bytes) {
                throw .invalidCatalog(source: source, line: number, field: nil, reason: problem)
            }
            if let (field, reason) = wrongType(error) {
                throw .invalidCatalog(source: source, line: number, field: field, reason: reason)
            }
            throw .invalidCatalog(source: source, line: number, field: nil, reason: "not a JSON object (\(describe(error)))")
        }
        let keys = JSONDuplicateKeys.scan(text)
        if let repeated = keys.repeated {
            throw .invalidCatalog(
                source: source, line: number, field: repeated,
                reason: JSONDuplicateKeys.reason)
        }
        // An unknown key is most likely a misspelt one (winback_offers for win_back_offers), whose
        // data would otherwise be dropped without a word.
        if let unknown = keys.topLevelKeys.first(where: { !Self.fields.contains($0) }) {
            throw .invalidCatalog(
                source: source, line: number, field: unknown,
                reason: "unknown field; " + (RenamedFields.note([unknown], in: RenamedFields.catalog)
                    ?? "a line has \(Self.fields.joined(separator: ", "))"))
        }
        return try product(line, number: number, register: register)
    }

    /// The product of a line read and checked as JSON.
    private mutating func product(
        _ line: Line, number: Int, register: (String) throws(StorePriceError) -> Void
    ) throws(StorePriceError) -> Product {
        guard case .string(let id)? = line.id, !id.isEmpty else {
            throw .invalidCatalog(source: source, line: number, field: "product", reason: "missing; expected a product ID string")
        }
        guard let priceFields = line.prices else {
            throw .invalidCatalog(source: source, line: number, field: "prices", reason: "missing; expected {\"USA\": \"0.99\", …}")
        }
        try register(id)
        var list: [(Int, Price)] = []
        var exceptions: [Int: ProductOrigin.PriceSource] = [:]
        if !readPrices(priceFields, number: number, into: &list, &exceptions) {
            // A line with a bad price, or two codes of one storefront, is read again in code
            // order, so that its error is always the same one.
            var made: [Int: Price] = [:]
            var places: [Int: ProductOrigin.PriceSource] = [:]
            try readPrices(priceFields, priceFields.keys.sorted(), number: number, source: source, into: &made, &places)
            (list, exceptions) = (made.map { ($0.key, $0.value) }, places)
        }
        return Product(
            checkedID: id, priceList: list,
            titles: try texts(line.title, field: "title", line: number),
            descriptions: try texts(line.description, field: "description", line: number),
            subscription: try terms(line, line: number),
            origin: ProductOrigin(source: source, line: number, fieldPrefix: "prices.", exceptions: exceptions))
    }

    /// A simple line's prices, sorted by storefront, with the places of those whose code is
    /// not their storefront's alpha-3 code or whose amount is written otherwise than ``Price``
    /// writes it; nil for a line with a code no storefront has, an amount that is none, or two
    /// prices of one storefront, which is read again to name the problem. No text is made for a
    /// price: codes and amounts stay packed, and each is looked up as an integer.
    private mutating func readPackedPrices(
        _ packed: [(code: UInt64, amount: UInt64)], number: Int
    ) -> (prices: [Product.PackedPrice], exceptions: [Int: ProductOrigin.PriceSource])? {
        var prices: [Product.PackedPrice] = []
        prices.reserveCapacity(packed.count)
        var exceptions: [Int: ProductOrigin.PriceSource] = [:]
        for (code, amount) in packed {
            guard let storefront = storefronts.key(packed: code), let canonical = amounts.canonical(amount) else { return nil }
            prices.append(Product.PackedPrice(storefrontID: Int32(truncatingIfNeeded: storefront.numericID), amount: canonical))
            if code != storefront.packedCountryCode || amount != canonical {
                exceptions[storefront.numericID] = ProductOrigin.PriceSource(
                    line: number, field: "prices.\(PackedAmount.unpack(code))", written: PackedAmount.unpack(amount))
            }
        }
        prices.sort { $0.storefrontID < $1.storefrontID }
        for index in prices.indices.dropFirst() where prices[index].storefrontID == prices[index - 1].storefrontID { return nil }
        return (prices, exceptions)
    }

    /// Reads a line's prices in the dictionary's order, which is cheaper than sorting 175 codes,
    /// keeping a place only for a price whose code is not its storefront's alpha-3 code or whose
    /// amount is written otherwise than ``Price`` writes it. False, with nothing kept, for a line
    /// with a price that cannot be used or two codes of one storefront: it is read again by
    /// ``readPrices(_:_:number:source:into:_:)``, which names the problem.
    private mutating func readPrices(
        _ priceFields: [String: FieldValue], number: Int, into list: inout [(Int, Price)],
        _ exceptions: inout [Int: ProductOrigin.PriceSource]
    ) -> Bool {
        list.reserveCapacity(priceFields.count)
        for (code, value) in priceFields {
            guard case .string(let amount) = value, let storefront = storefronts.key(code),
                let price = prices.price(amount, currency: storefront.currency)
            else { return false }
            list.append((storefront.numericID, price))
            if code != storefront.countryCode || amount != price.amount {
                exceptions[storefront.numericID] = ProductOrigin.PriceSource(line: number, field: "prices.\(code)", written: amount)
            }
        }
        list.sort { $0.0 < $1.0 }
        for index in list.indices.dropFirst() where list[index].0 == list[index - 1].0 { return false }
        return true
    }

    /// Reads a line's prices, in the order of `codes`, stopping at the first that cannot be used.
    private mutating func readPrices(
        _ priceFields: [String: FieldValue], _ codes: some Sequence<String>, number: Int, source: String,
        into made: inout [Int: Price], _ places: inout [Int: ProductOrigin.PriceSource]
    ) throws(StorePriceError) {
        for code in codes {
            let field = "prices.\(code)"
            guard case .string(let amount)? = priceFields[code] else {
                throw .invalidCatalog(
                    source: source, line: number, field: field,
                    reason: "expected decimal text such as \"0.99\"; JSON numbers lose digits in most tools")
            }
            let storefront = try storefronts.storefront(code, source: source, line: number, field: field)
            guard made[storefront.numericID] == nil else {
                throw .invalidCatalog(
                    source: source, line: number, field: field, reason: "a second price for \(storefront.countryCode)")
            }
            made[storefront.numericID] = try prices.price(amount, in: storefront, source: source, line: number, field: field)
            places[storefront.numericID] = ProductOrigin.PriceSource(line: number, field: field, written: amount)
        }
    }

    /// The period and offers of a subscription line; nil for a line without `period`.
    private mutating func terms(_ line: Line, line number: Int) throws(StorePriceError) -> SubscriptionTerms? {
        func fail(_ field: String, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: number, field: field, reason: reason)
        }
        func fields(_ offer: Offer, field: String) throws(StorePriceError) -> OfferFields {
            if let unknown = offer.keys.first(where: { !Self.offerFields.contains($0) }) {
                throw fail(
                    "\(field).\(unknown)",
                    "unknown field; " + (RenamedFields.note([unknown], in: RenamedFields.catalog)
                        ?? "an offer has \(Self.offerFields.joined(separator: ", "))"))
            }
            var made: [Int: Price] = [:]
            var places: [Int: ProductOrigin.PriceSource] = [:]
            for code in (offer.prices ?? [:]).keys.sorted() {
                let priceField = "\(field).prices.\(code)"
                guard case .string(let amount)? = offer.prices?[code] else {
                    throw fail(priceField, "expected decimal text such as \"0.99\"")
                }
                let storefront = try storefronts.storefront(code, source: source, line: number, field: priceField)
                guard made[storefront.numericID] == nil else { throw fail(priceField, "a second price for \(storefront.countryCode)") }
                made[storefront.numericID] = try prices.price(amount, in: storefront, source: source, line: number, field: priceField)
                places[storefront.numericID] = ProductOrigin.PriceSource(line: number, field: priceField, written: amount)
            }
            var offered: Set<Int>?
            if let codes = offer.storefronts {
                guard made.isEmpty else {
                    throw fail("\(field).storefronts", "an offer with prices is offered where it has them; storefronts are for a free trial")
                }
                var ids: Set<Int> = []
                for (index, code) in codes.enumerated() {
                    let storefront = try storefronts.storefront(code, source: source, line: number, field: "\(field).storefronts[\(index)]")
                    guard ids.insert(storefront.numericID).inserted else {
                        throw fail("\(field).storefronts[\(index)]", "\(storefront.countryCode) again")
                    }
                }
                offered = ids
            }
            return OfferFields(
                id: offer.id, paymentMode: offer.paymentMode, period: offer.period, periodCount: offer.periodCount,
                prices: made, storefronts: offered, origin: ProductOrigin(source: source, prices: places))
        }
        func list(_ offers: [Offer]?, kind: CatalogOffer.Kind, key: String, single: Bool = false)
            throws(StorePriceError) -> OfferList
        {
            var read: [OfferFields] = []
            for (index, offer) in (offers ?? []).enumerated() {
                read.append(try fields(offer, field: single ? key : "\(key)[\(index)]"))
            }
            return OfferList(kind: kind, key: key, single: single, offers: read)
        }
        if line.introductoryOffer != nil && line.introductoryOffers != nil {
            throw fail("introductory_offers", "give introductory_offer (one) or introductory_offers (a list), not both")
        }
        let introductory: OfferList
        if let offers = line.introductoryOffers {
            introductory = try list(offers, kind: .introductory, key: "introductory_offers")
        } else {
            introductory = try list(line.introductoryOffer.map { [$0] }, kind: .introductory, key: "introductory_offer", single: true)
        }
        return try SubscriptionTerms.read(
            period: line.period,
            offers: [
                introductory, try list(line.promotionalOffers, kind: .promotional, key: "promotional_offers"),
                try list(line.offerCodes, kind: .offerCode, key: "offer_codes"),
                try list(line.winBackOffers, kind: .winBack, key: "win_back_offers"),
            ],
            keys: ("period", "period", "id", "payment_mode"), required: false, fail: fail)
    }

    private func texts(_ fields: [String: FieldValue]?, field: String, line: Int) throws(StorePriceError) -> [String: String] {
        guard let fields else { return [:] }
        var texts: [String: String] = [:]
        var tags = LanguageTagSet()
        for tag in fields.keys.sorted() {
            guard case .string(let text)? = fields[tag] else {
                throw .invalidCatalog(source: source, line: line, field: "\(field).\(tag)", reason: "expected a string")
            }
            if let reason = tags.insert(tag) {
                throw .invalidCatalog(source: source, line: line, field: field, reason: reason)
            }
            texts[tag] = text
        }
        return texts
    }
}

/// A member of the wrong JSON type, in words: its field, and what it takes with an example, such
/// as `expected an object of language tags to text, such as {"en":"Coins"}; got a string`. Nil
/// for any other error.
func wrongType(_ error: any Error) -> (field: String, reason: String)? {
    let type: Any.Type
    let context: DecodingError.Context
    switch error {
    case DecodingError.typeMismatch(let expected, let found), DecodingError.valueNotFound(let expected, let found):
        (type, context) = (expected, found)
    default:
        return nil
    }
    let path = context.codingPath.map(\.stringValue).filter { !$0.isEmpty }
    guard let last = context.codingPath.last(where: { $0.intValue == nil })?.stringValue ?? path.last else { return nil }
    let expected: String
    switch last {
    case "prices": expected = #"an object of storefront codes to amounts as text, such as {"USA":"0.99"}"#
    case "title", "description", "titles", "descriptions":
        expected = #"an object of language tags to text, such as {"en":"100 Coins"}"#
    default:
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") {
            expected = "an object"
        } else if name.hasPrefix("Array") {
            expected = "a list"
        } else if name.hasPrefix("String") {
            expected = "text in quotes"
        } else if name == "Bool" {
            expected = "true or false"
        } else if ["Int", "Int32", "Int64", "Double", "Decimal"].contains(name) {
            expected = "a number"
        } else {
            expected = "another kind of value"
        }
    }
    return (jsonPath(context.codingPath), "expected \(expected); got \(jsonValueFound(context))")
}

/// A coding path as a person writes it: `promotional_offers[0].prices`, not `Index 0`.
func jsonPath(_ codingPath: [any CodingKey]) -> String {
    var path = ""
    for key in codingPath {
        if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
            path += "[\(index)]"
        } else if !key.stringValue.isEmpty {
            path += (path.isEmpty ? "" : ".") + key.stringValue
        }
    }
    return path
}

/// The kind of JSON value a decoding error found, in JSON's words: `a string`, `a number`,
/// `an object`, `a list`, `true or false`, `null`.
func jsonValueFound(_ context: DecodingError.Context) -> String {
    // JSONDecoder's words end "…but found a string instead." or "…but found null instead."
    var found = "null"
    let words = context.debugDescription.split(separator: " ", omittingEmptySubsequences: true)
    if let at = words.firstIndex(of: "found") {
        found = words[(at + 1)...].prefix { $0 != "instead." && $0 != "instead" }.joined(separator: " ")
        if !found.hasPrefix("a "), !found.hasPrefix("an "), found != "null" { found = "a " + found }
        found = ["a dictionary": "an object", "an array": "a list", "a bool": "true or false"][found] ?? found
    }
    return found
}

/// A decoding error in words: the field and the kind of value expected, never a Swift type.
func describe(_ error: any Error) -> String {
    if let wrong = wrongType(error) { return "\(wrong.field): \(wrong.reason)" }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
        return "missing field '\(jsonPath(context.codingPath + [key]).escapedForMessage)'"
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
        let path = jsonPath(context.codingPath)
        return path.isEmpty ? "a value of another kind" : "\(path): a value of another kind"
    case DecodingError.dataCorrupted(let context):
        let path = jsonPath(context.codingPath)
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    default:
        return String(describing: error)
    }
}

extension JSONLinesLineParser {
    /// A line of the usual shape read without `JSONDecoder`: one object whose members are
    /// `product` (a string) and `prices`, `title` and `description` (objects of strings), each
    /// once, every key distinct and no string with an escape or a control character. Nil for any
    /// other line, which `JSONDecoder` and the repeated-key scan read, so that its errors are
    /// theirs; what this accepts, they would read to the same values.
    fileprivate static func simpleLine(_ text: String) -> Line? {
        var text = text
        return text.withUTF8 { bytes -> Line? in
            var index = 0
            func skipSpace() {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                    index += 1
                }
            }
            func take(_ byte: UInt8) -> Bool {
                skipSpace()
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            func string() -> String? {
                guard take(UInt8(ascii: "\"")) else { return nil }
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    guard bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\\") else { return nil }
                    index += 1
                }
                guard index < bytes.count else { return nil }
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
            }
            func strings() -> [String: FieldValue]? {
                guard take(UInt8(ascii: "{")) else { return nil }
                var values: [String: FieldValue] = [:]
                if take(UInt8(ascii: "}")) { return values }
                repeat {
                    guard let key = string(), take(UInt8(ascii: ":")), let value = string(), values[key] == nil else { return nil }
                    values[key] = .string(value)
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}")) ? values : nil
            }
            /// Text of at most 8 bytes, packed; nil for longer text, or text with an escape.
            func packed() -> UInt64? {
                guard take(UInt8(ascii: "\"")) else { return nil }
                var value: UInt64 = 0
                var shift: UInt64 = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    guard bytes[index] >= 0x20, bytes[index] < 0x80, bytes[index] != UInt8(ascii: "\\"), shift < 64 else { return nil }
                    value |= UInt64(bytes[index]) << shift
                    shift += 8
                    index += 1
                }
                guard index < bytes.count, shift > 0 else { return nil }
                index += 1
                return value
            }
            /// An object of short strings, as most price lists are (`"JPN":"160"`); a repeated
            /// key is found as a storefront priced twice, and the line read again.
            func packedStrings() -> [(code: UInt64, amount: UInt64)]? {
                guard take(UInt8(ascii: "{")) else { return nil }
                var values: [(code: UInt64, amount: UInt64)] = []
                if take(UInt8(ascii: "}")) { return values }
                values.reserveCapacity(180)
                repeat {
                    guard let key = packed(), take(UInt8(ascii: ":")), let value = packed() else { return nil }
                    values.append((key, value))
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}")) ? values : nil
            }
            var line = Line()
            guard take(UInt8(ascii: "{")) else { return nil }
            repeat {
                guard let key = string(), take(UInt8(ascii: ":")) else { return nil }
                switch key {
                case "product" where line.id == nil:
                    guard let id = string() else { return nil }
                    line.id = .string(id)
                case "prices" where line.prices == nil && line.packedPrices == nil:
                    guard let prices = packedStrings() else { return nil }
                    line.packedPrices = prices
                case "title" where line.title == nil:
                    guard let titles = strings() else { return nil }
                    line.title = titles
                case "description" where line.description == nil:
                    guard let descriptions = strings() else { return nil }
                    line.description = descriptions
                default:
                    return nil
                }
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
            skipSpace()
            return index == bytes.count ? line : nil
        }
    }
}
