#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One worker of a bulk run: parses a chunk of a CSV catalog on its bytes, renders each product
/// for every target and writes the rows into the chunk's output.
///
/// Nothing on the way builds a `String` per line or field: storefront codes are found by table,
/// amounts by their bytes, and each (price locale, amount) pair's encoded part is made once, by
/// ICU, and copied into every row that shows it. Strings are made once per product (its ID), once
/// per distinct amount (its ``Price``) and for errors.
///
/// A value, not a class: its state is touched on every row, and a class's stored properties pay
/// a dynamic exclusivity check on each access. `BulkRenderer` keeps one per worker in a box and
/// lends it to one chunk at a time.
struct ChunkRenderer: ~Copyable {
    private let plan: BulkPlan
    /// The amounts and parts of the run, and where fresh ones come from when they fill up.
    private let generations: PriceTables.Generations
    private var tables: PriceTables
    /// This worker's number in the run, from 0.
    private let worker: Int
    /// Codes other than upper-case alpha-3 (`us`, `143441`), by their text: a storefront index,
    /// or the error for an unknown code.
    private var otherCodes: [String: Result<Int, StorePriceError>] = [:]
    /// Whether this worker has told which formatters its first product needs.
    private var toldFirstProduct = false
    /// The targets the current product has no price for, when it lacks some.
    private var missingTargets: [Int] = []
    /// The targets the last invalid product lacked, and their storefronts' codes, sorted.
    private var lastMissing: (targets: [Int], codes: [String]) = ([], [])

    // The current product.
    private var currentID = ByteBuffer(capacity: 256)
    private var currentLine = 0
    private var hasProduct = false
    private var serial: Int32 = 0
    /// Per storefront: the product serial that priced it, its amount number, line and line start.
    private struct Slot {
        var stamp: Int32 = -1
        var amount: Int32 = 0
        var line = 0
        var lineStart = 0
    }
    private let slots: UnsafeMutableBufferPointer<Slot>
    /// The plan's per-row tables, copied into memory this worker owns: read on every row without
    /// reference counting or bounds checks (every index comes from the plan itself).
    private let storefrontCurrency: UnsafeMutableBufferPointer<Int>
    private let alpha3: UnsafeMutableBufferPointer<Int16>
    private let targetStorefront: UnsafeMutableBufferPointer<Int>
    private let storefrontIsTarget: UnsafeMutableBufferPointer<Bool>
    /// What ends a row and starts the next one of the same product: the row's suffix, then the
    /// product's part. A product's rows are its part, then each target's part and its block,
    /// less the last block's product part. One block for a product without titles; with titles,
    /// one per distinct title the targets show, and each target's block.
    private var block = ByteBuffer(capacity: 512)
    private struct BlockRange {
        var start = 0
        var count = 0
    }
    /// Where each block is in `block`: one per target at most, read on every row.
    private let blockRanges: UnsafeMutableBufferPointer<BlockRange>
    private var blockCount = 0
    private let targetBlock: UnsafeMutableBufferPointer<Int32>
    /// The current product's part of its rows.
    private var productBytes = ByteBuffer(capacity: 256)
    /// The current product's titles by normalized language tag (JSON Lines catalogs, products).
    private var titles: [String: String] = [:]
    /// The current product's default title language (a product read from a `.storekit` file).
    private var defaultTitleLanguage: String?
    /// Products in memory: the current product's last amount and its number, per currency.
    private var lastNumber: [Int32]
    private var lastPacked: [UInt64]
    /// The longest part met so far.
    private var longestPart = 0
    /// The fields of a line with quotes, unquoted.
    private var scratch = ByteBuffer(capacity: 256)
    /// A part being made.
    private var partBytes = ByteBuffer(capacity: 512)

    /// Lines of a JSON Lines catalog not of the usual shape (subscriptions, escapes, errors) are
    /// read by the reader's own parser, made into rows as values and encoded by ``RowEncoder``.
    private var lineParser: JSONLinesLineParser
    private var encoder: RowEncoder
    /// Price-store slots of (target, amount number) pairs this worker formatted for rows encoded
    /// by ``RowEncoder``, in a run that hands bytes, and the tables whose numbers they are.
    private var knownSlots: [Int: Int32] = [:]
    private var knownSlotsTables: PriceTables?
    /// The title index of each title chain for the product being made into rows; -2 for not
    /// looked up yet.
    private var chainTitle: [Int32] = []
    /// The lines of the file before the chunk being read, for the products a catalog reader
    /// reads (``BulkPlan/readsProducts``), or the products before a chunk of products.
    var lineOffset = 0
    /// The current line's title and description language tags as written, and their texts.
    private var titleTags = LanguageTagSet()
    private var descriptionTags = LanguageTagSet()

    init(plan: BulkPlan, generations: PriceTables.Generations, worker: Int) {
        self.plan = plan
        self.generations = generations
        tables = generations.tables
        self.worker = worker
        slots = .allocate(capacity: plan.storefronts.count)
        slots.initialize(repeating: Slot())
        // Exactly as many elements as the values (none for no targets), in memory of at least one.
        func copy<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, values.count))
            _ = buffer.initialize(from: values)
            return UnsafeMutableBufferPointer(rebasing: buffer[0..<values.count])
        }
        storefrontCurrency = copy(plan.storefrontCurrency)
        alpha3 = copy(plan.alpha3)
        targetStorefront = copy(plan.targetStorefront)
        storefrontIsTarget = copy(plan.storefrontIsTarget)
        targetBlock = copy(Array(repeating: Int32(0), count: plan.targets.count))
        blockRanges = .allocate(capacity: plan.targets.count + 1)
        blockRanges.initialize(repeating: BlockRange())
        lastNumber = Array(repeating: -1, count: plan.currencies.count)
        lastPacked = Array(repeating: 0, count: plan.currencies.count)
        lineParser = JSONLinesLineParser(source: plan.source)
        encoder = RowEncoder(
            format: plan.layout.format, escapeNonASCII: plan.layout.escapeNonASCII, options: plan.options,
            rawCSV: plan.layout.rawCSV)
    }

    /// Starts another run with this worker, as a worker of a fresh run would: what it found
    /// (amounts, parts, codes) stays, what it reports starts empty.
    mutating func startRun() {
        hasProduct = false
        currentID.removeAll()
        lineOffset = 0
        encoder.forgetLocalesWithoutWording()
    }

    deinit {
        for buffer in [storefrontCurrency, targetStorefront] { buffer.deallocate() }
        targetBlock.deallocate()
        storefrontIsTarget.deallocate()
        blockRanges.deallocate()
        slots.deallocate()
        alpha3.deallocate()
    }

    private struct Field {
        var start: UnsafePointer<UInt8>
        var count: Int
        var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
    }

    /// A line without quotes cut at its first two commas, the third field running to its end;
    /// nil for a line with fewer than two.
    private static func plainFields(_ start: UnsafePointer<UInt8>, _ length: Int) -> (Field, Field, Field)? {
        let comma = Int32(UInt8(ascii: ","))
        guard let first = memchr(start, comma, length),
            case let firstEnd = start.distance(to: first.assumingMemoryBound(to: UInt8.self)),
            let second = memchr(start + firstEnd + 1, comma, length - firstEnd - 1),
            case let secondEnd = start.distance(to: second.assumingMemoryBound(to: UInt8.self))
        else { return nil }
        return (
            Field(start: start, count: firstEnd),
            Field(start: start + firstEnd + 1, count: secondEnd - firstEnd - 1),
            Field(start: start + secondEnd + 1, count: length - secondEnd - 1)
        )
    }

    /// Renders a chunk into `output`, stopping at the first line that cannot be used.
    mutating func render(_ input: UnsafeBufferPointer<UInt8>, into output: inout ByteBuffer, _ chunk: inout ChunkResults) {
        hasProduct = false
        guard let base = input.baseAddress else { return }
        let count = input.count
        let ascii = Self.isASCII(base, count)
        let quoted = memchr(base, Int32(UInt8(ascii: "\"")), count) != nil
        // A JSON Lines row is about seven times its CSV line: room for that without growing.
        output.reserve(count * 8)
        var position = 0
        var line = 0
        let columns = plan.columns
        let standardColumns = columns == (0, 1, 2)
        // Most lines repeat the product of the line before, with an alpha-3 code and an amount
        // seen before: they are read by `pricesOfSameProduct`, a loop of their own.
        let simple = ascii && !quoted && standardColumns
        while position < count {
            if simple, hasProduct {
                position = pricesOfSameProduct(base, from: position, count: count, line: &line)
                guard position < count else { break }
            }
            line += 1
            let lineStart = position
            var lineEnd: Int
            if let newline = memchr(base + position, Int32(UInt8(ascii: "\n")), count - position) {
                lineEnd = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                position = lineEnd + 1
            } else {
                lineEnd = count
                position = count
            }
            if lineEnd > lineStart, base[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            let length = lineEnd - lineStart
            if length == 0 { continue }
            guard length <= LineReader.maximumLineLength else {
                return fail(&chunk, line, nil, "longer than \(LineReader.maximumLineLength >> 20) MiB; a line holds one product or price")
            }
            let text = UnsafeBufferPointer(start: base + lineStart, count: length)
            if !ascii, !UTF8Validation.isValid(text) {
                return fail(&chunk, line, nil, "not valid UTF-8")
            }
            var fields: (Field, Field, Field)
            if !quoted {
                // No quotes anywhere in the chunk: a field ends at a comma.
                guard let plain = Self.plainFields(base + lineStart, length) else {
                    let commas = text.reduce(0) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
                    return fail(&chunk, line, nil, "\(commas + 1) field\(commas == 0 ? "" : "s"); expected 3")
                }
                fields = plain
            } else {
                let split: [String]
                do {
                    split = try CSVCatalogReader.fields(String(decoding: text, as: UTF8.self), source: plan.source, line: line)
                } catch {
                    return fail(&chunk, line, nil, "a quoted field is not closed")
                }
                guard split.count == 3 else {
                    return fail(&chunk, line, nil, "\(split.count) field\(split.count == 1 ? "" : "s"); expected 3")
                }
                // Unquoted copies, in a buffer that does not move while they are read.
                scratch.removeAll()
                var lengths: [Int] = []
                for value in split {
                    let before = scratch.count
                    scratch.append(value)
                    lengths.append(scratch.count - before)
                }
                let start = UnsafePointer(scratch.base)
                fields = (
                    Field(start: start, count: lengths[0]),
                    Field(start: start + lengths[0], count: lengths[1]),
                    Field(start: start + lengths[0] + lengths[1], count: lengths[2])
                )
            }
            let id, code, amount: Field
            if standardColumns {
                (id, code, amount) = fields
            } else {
                id = Self.field(fields, columns.product)
                code = Self.field(fields, columns.storefront)
                amount = Self.field(fields, columns.price)
            }
            guard id.count > 0 else { return fail(&chunk, line, "product", "empty") }
            let sameProduct = hasProduct && id.count == currentID.count && memcmp(id.start, currentID.base, id.count) == 0
            guard renderPrice(code: code, amount: amount, sameProduct: sameProduct, line: line, lineStart: lineStart,
                              text: text, quoted: quoted, input: input, output: &output, chunk: &chunk, id: id)
            else { return }
        }
        if hasProduct {
            guard finishProduct(&chunk, &output, input) else { return }
            hasProduct = false
        }
        chunk.lines = line
    }

    /// Reads one price line's storefront and amount and records them for the current product,
    /// first finishing the product before when the line starts another (`id`); false when the
    /// line cannot be used, with the chunk's failure set.
    @inline(__always)
    private mutating func renderPrice(
        code: Field, amount: Field, sameProduct: Bool, line: Int, lineStart: Int, text: UnsafeBufferPointer<UInt8>,
        quoted: Bool, input: UnsafeBufferPointer<UInt8>, output: inout ByteBuffer, chunk: inout ChunkResults, id: Field?
    ) -> Bool {
        var storefront = fastStorefrontIndex(code.buffer)
        if storefront < 0 {
            switch storefrontIndex(code.buffer) {
            case .success(let index): storefront = index
            case .failure(let error):
                fail(&chunk, line, "storefront", error.description)
                return false
            }
        }
        let currency = storefrontCurrency[storefront]
        var number: Int32
        if let known = tables.number(amount.buffer, currency: currency, worker: worker) {
            number = known
        } else {
            // A third comma is found here: only a new amount can hold one.
            if !quoted, amount.buffer.contains(UInt8(ascii: ",")) {
                let commas = text.reduce(0) { $0 + ($1 == UInt8(ascii: ",") ? 1 : 0) }
                fail(&chunk, line, nil, "\(commas + 1) fields; expected 3")
                return false
            }
            do throws(StorePriceError) {
                number = try addAmount(amount.buffer, currency: currency)
            } catch {
                fail(&chunk, line, "price", error.description)
                return false
            }
        }

        if sameProduct {
            guard slots[storefront].stamp != serial else {
                let shown = String(decoding: currentID.bytes, as: UTF8.self).escapedForMessage
                fail(&chunk, line, "storefront", "a second price for '\(shown)' in \(plan.storefronts[storefront].countryCode)")
                return false
            }
        } else {
            if hasProduct {
                guard finishProduct(&chunk, &output, input) else { return false }
            }
            // Full tables are left between products, when no price of the current product
            // refers to them; the line's amount is numbered again in the fresh ones.
            if tables.isFull, let price = tables.price(currency: currency, number: number) {
                tables = generations.renewed(from: tables)
                number = tables.add(amount.buffer, currency: currency, price: price, worker: worker)
            }
            currentID.removeAll()
            if let id { currentID.append(id.start, count: id.count) }
            currentLine = line
            hasProduct = true
            serial &+= 1
        }
        slots[storefront] = Slot(stamp: serial, amount: number, line: line, lineStart: lineStart)
        return true
    }

    /// Renders a chunk of a JSON Lines catalog, whole lines, into `output`, stopping at the first
    /// line that cannot be used.
    ///
    /// A line of the usual shape (`product`, `prices`, `title`, `description`, plain strings) is
    /// read on its bytes and its rows written from cached parts; any other line, or one with
    /// anything to refuse, is read by the JSON Lines reader's parser and made into rows as values,
    /// so that its rows and its error are those of the product that reader reads.
    mutating func renderJSONLines(_ input: UnsafeBufferPointer<UInt8>, into output: inout ByteBuffer, _ chunk: inout ChunkResults) {
        hasProduct = false
        guard let base = input.baseAddress else { return }
        let count = input.count
        let ascii = Self.isASCII(base, count)
        var lines = ChunkLines(input)
        while let text = lines.next() {
            let line = lines.number
            let lineStart = lines.start
            guard text.count <= LineReader.maximumLineLength else {
                return fail(&chunk, line, nil, "longer than \(LineReader.maximumLineLength >> 20) MiB; a line holds one product or price")
            }
            if text.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            if !ascii, !UTF8Validation.isValid(text) {
                return fail(&chunk, line, nil, "not valid UTF-8")
            }
            let outputBefore = output.count
            if readUsualLine(text, line: line, lineStart: lineStart) {
                hasProduct = true
                if finishProduct(&chunk, &output, input) { continue }
                // A price the options cannot show: the product the reader reads names it.
                output.truncate(to: outputBefore)
                chunk.failure = nil
                chunk.products.removeLast()
            }
            guard renderOtherLine(text, line: line, output: &output, chunk: &chunk) else { return }
        }
        chunk.lines = lines.number
    }

    /// Reads a line of the usual shape into the slots, the current ID and titles; false for any
    /// other line, or one with anything to refuse.
    private mutating func readUsualLine(_ text: UnsafeBufferPointer<UInt8>, line: Int, lineStart: Int) -> Bool {
        guard let base = text.baseAddress else { return false }
        if tables.isFull { tables = generations.renewed(from: tables) }
        serial &+= 1
        titles.removeAll(keepingCapacity: true)
        titleTags = LanguageTagSet()
        descriptionTags = LanguageTagSet()
        let count = text.count
        var index = 0
        func skipSpace() {
            while index < count, base[index] == 0x20 || base[index] == 0x09 || base[index] == 0x0A || base[index] == 0x0D {
                index += 1
            }
        }
        func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < count, base[index] == byte else { return false }
            index += 1
            return true
        }
        /// A string without escapes or control characters, as a buffer of its bytes.
        func string() -> UnsafeBufferPointer<UInt8>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < count, base[index] != UInt8(ascii: "\"") {
                guard base[index] >= 0x20, base[index] != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            guard index < count else { return nil }
            index += 1
            return UnsafeBufferPointer(start: base + start, count: index - 1 - start)
        }
        func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: StaticString) -> Bool {
            guard a.count == b.utf8CodeUnitCount, let start = a.baseAddress else { return false }
            return memcmp(start, b.utf8Start, a.count) == 0
        }
        var id: UnsafeBufferPointer<UInt8>?
        var hasPrices = false
        var hasTitle = false
        var hasDescription = false
        guard take(UInt8(ascii: "{")) else { return false }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")) else { return false }
            if equal(key, "product") {
                guard id == nil, let value = string(), value.count > 0 else { return false }
                id = value
            } else if equal(key, "prices") {
                guard !hasPrices, take(UInt8(ascii: "{")) else { return false }
                hasPrices = true
                if take(UInt8(ascii: "}")) { continue }
                repeat {
                    guard let code = string(), take(UInt8(ascii: ":")), let amount = string(),
                        recordPrice(code: code, amount: amount, line: line, lineStart: lineStart)
                    else { return false }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return false }
            } else if equal(key, "title") || equal(key, "description") {
                let isTitle = key.count == 5
                guard isTitle ? !hasTitle : !hasDescription, take(UInt8(ascii: "{")) else { return false }
                if isTitle { hasTitle = true } else { hasDescription = true }
                if take(UInt8(ascii: "}")) { continue }
                repeat {
                    guard let tag = string(), take(UInt8(ascii: ":")), let value = string() else { return false }
                    let written = String(decoding: tag, as: UTF8.self)
                    // Two tags of one language: the reader names them.
                    if isTitle {
                        guard titleTags.insert(written) == nil else { return false }
                        titles[Product.normalizedTag(written)] = String(decoding: value, as: UTF8.self)
                    } else {
                        guard descriptionTags.insert(written) == nil else { return false }
                    }
                } while take(UInt8(ascii: ","))
                guard take(UInt8(ascii: "}")) else { return false }
            } else {
                return false
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return false }
        skipSpace()
        guard index == count, let id, hasPrices, let idBase = id.baseAddress else { return false }
        currentID.removeAll()
        currentID.append(idBase, count: id.count)
        currentLine = line
        return true
    }

    /// Records one price of a line of the usual shape; false for a code or amount to refuse, or
    /// a second price for a storefront.
    private mutating func recordPrice(
        code: UnsafeBufferPointer<UInt8>, amount: UnsafeBufferPointer<UInt8>, line: Int, lineStart: Int
    ) -> Bool {
        var storefront = fastStorefrontIndex(code)
        if storefront < 0 {
            guard case .success(let index) = storefrontIndex(code) else { return false }
            storefront = index
        }
        guard slots[storefront].stamp != serial else { return false }
        // A storefront no target shows: an amount Price surely reads is kept unnumbered (a
        // service's two targets of a catalog priced in 175 storefronts number 2 in 175).
        if !storefrontIsTarget[storefront], Self.isPlainAmount(amount) {
            slots[storefront] = Slot(stamp: serial, amount: -1, line: line, lineStart: lineStart)
            return true
        }
        let currency = storefrontCurrency[storefront]
        var number: Int32
        if let known = tables.number(amount, currency: currency, worker: worker) {
            number = known
        } else {
            guard let added = try? addAmount(amount, currency: currency) else { return false }
            number = added
        }
        slots[storefront] = Slot(stamp: serial, amount: number, line: line, lineStart: lineStart)
        return true
    }

    /// Whether an amount is 1 to 16 digits with at most one `.` between digits: text ``Price``
    /// reads without fail.
    @inline(__always)
    static func isPlainAmount(_ amount: UnsafeBufferPointer<UInt8>) -> Bool {
        guard amount.count > 0, amount.count <= 16 else { return false }
        var point = -1
        for index in 0..<amount.count {
            let byte = amount[index]
            if byte == UInt8(ascii: ".") {
                guard point < 0 else { return false }
                point = index
            } else if byte &- UInt8(ascii: "0") > 9 {
                return false
            }
        }
        return point != 0 && point != amount.count - 1
    }

    /// Reads a line with the JSON Lines reader's parser and makes it into rows; false when it
    /// cannot be used, with the chunk's failure set to the error.
    private mutating func renderOtherLine(
        _ text: UnsafeBufferPointer<UInt8>, line: Int, output: inout ByteBuffer, chunk: inout ChunkResults
    ) -> Bool {
        var registered: String?
        do throws(StorePriceError) {
            let product = try plan.parsedLines.product(text, line: line) { () throws(StorePriceError) in
                try lineParser.product(String(decoding: text, as: UTF8.self), number: line) { id in
                    registered = id
                }
            }
            registered = nil
            try encodeRows(of: product, line: line, into: &output, &chunk)
            return true
        } catch {
            // The line named a product before its error: it counts for the repeated-product check.
            if let registered { chunk.products.append((registered, line)) }
            chunk.failure = BulkFailure(error)
            chunk.lines = line
            return false
        }
    }

    /// Renders products already in memory into `output`, or into the chunk's rows as values in a
    /// run that hands rows, stopping at the first that cannot be rendered; each counts as a line,
    /// numbered from 1 within the chunk.
    ///
    /// A product that is not a subscription is written from the run's cached parts, as a catalog
    /// line is; a subscription, or a price the options cannot show, is made into rows as values
    /// and encoded by ``RowEncoder``, so that its rows and error are those of a run handing rows.
    mutating func renderProducts(_ products: ArraySlice<Product>, into output: inout ByteBuffer, _ chunk: inout ChunkResults) {
        var line = 0
        var rows = RowValues()
        for product in products {
            line += 1
            if !plan.handsRows, product.subscription == nil {
                readProduct(product, line: line)
                hasProduct = true
                let outputBefore = output.count
                if finishProduct(&chunk, &output, UnsafeBufferPointer(start: nil, count: 0)) { continue }
                output.truncate(to: outputBefore)
                chunk.failure = nil
                chunk.products.removeLast()
            }
            do throws(StorePriceError) {
                if plan.handsRows {
                    try appendRows(of: product, line: line, to: &rows, &chunk)
                } else {
                    try encodeRows(of: product, line: line, into: &output, &chunk)
                }
            } catch {
                chunk.failure = BulkFailure(keeping: error)
                chunk.lines = line
                return
            }
        }
        chunk.lines = line
        guard plan.handsRows else { return }
        do throws(StorePriceError) {
            chunk.batch = try rows.batch(plan: plan)
        } catch {
            chunk.failure = BulkFailure(keeping: error)
        }
    }

    /// Numbers a product's amounts into the slots and makes it the current product; a price for
    /// a storefront the run does not know is left out (no target shows it).
    ///
    /// Most storefronts of a currency share a product's amount: it is numbered once per
    /// currency and product, from its packed bytes (``Product/packedPrices``) when it has at
    /// most 8.
    private mutating func readProduct(_ product: Product, line: Int) {
        if tables.isFull { tables = generations.renewed(from: tables) }
        serial &+= 1
        currentID.removeAll()
        var id = product.id
        id.withUTF8 { currentID.append($0) }
        currentLine = line
        titles = product.titles
        defaultTitleLanguage = product.defaultTitleLanguage
        // A few targets of a product priced everywhere: only their storefronts' prices are read.
        if plan.targetStorefronts.count * 4 < product.packedPrices.count {
            for storefront in plan.targetStorefronts {
                guard let price = product.prices[plan.storefronts[storefront].numericID] else { continue }
                let currency = storefrontCurrency[storefront]
                var amount = price.amount
                let number = amount.withUTF8 { amount in
                    tables.number(amount, currency: currency, worker: worker)
                        ?? tables.add(amount, currency: currency, price: price, worker: worker)
                }
                slots[storefront] = Slot(stamp: serial, amount: number, line: line, lineStart: 0)
            }
            return
        }
        for index in lastNumber.indices { lastNumber[index] = -1 }
        let byOffset = plan.storefrontIndexByOffset
        for entry in product.packedPrices {
            let offset = Int(entry.storefrontID) - plan.storefrontIDBase
            guard offset >= 0, offset < byOffset.count else { continue }
            let storefront = Int(byOffset[offset])
            guard storefront >= 0 else { continue }
            let currency = storefrontCurrency[storefront]
            var number: Int32
            if entry.amount != 0, lastNumber[currency] >= 0, lastPacked[currency] == entry.amount {
                number = lastNumber[currency]
            } else {
                guard let known = numbered(product, entry, currency: currency) else { continue }
                number = known
                lastNumber[currency] = number
                lastPacked[currency] = entry.amount
            }
            slots[storefront] = Slot(stamp: serial, amount: number, line: line, lineStart: 0)
        }
    }

    /// The run's number for a product's price in a storefront, from the price's packed bytes
    /// when it has at most 8, else from its text. The product's prices (scattered in memory) are
    /// read only for an amount the run has not numbered yet.
    private func numbered(_ product: Product, _ entry: Product.PackedPrice, currency: Int) -> Int32? {
        func number(_ amount: UnsafeBufferPointer<UInt8>) -> Int32? {
            if let known = tables.number(amount, currency: currency, worker: worker) { return known }
            guard let price = product.prices[Int(entry.storefrontID)] else { return nil }
            return tables.add(amount, currency: currency, price: price, worker: worker)
        }
        if entry.amount != 0 {
            var bytes = entry.amount.littleEndian
            let length = 8 - entry.amount.leadingZeroBitCount / 8
            return withUnsafeBytes(of: &bytes) { raw in
                number(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: length))
            }
        }
        guard var text = product.prices[Int(entry.storefrontID)]?.amount else { return nil }
        return text.withUTF8 { number($0) }
    }

    // MARK: Rows as values

    /// Rows as values, the pieces of a ``RenderedBatch``.
    struct RowValues {
        var products: [Product] = []
        var entries: [RenderedBatch.Entry] = []
        var titles: [String] = []
        var overflow: [PriceStore.Slot] = []

        /// The batch of these rows, each subscription row's text computed.
        func batch(plan: BulkPlan) throws(StorePriceError) -> RenderedBatch {
            var batch = RenderedBatch(
                products: products, targets: plan.targets, store: plan.priceStore, overflow: overflow, titles: titles,
                entries: entries)
            if batch.containsSubscriptions {
                // Part of each row; a price the options cannot show fails the run here.
                batch.subscriptions = try batch.indices.map { (position) throws(StorePriceError) in
                    try plan.subscriptionTexts.text(at: position, of: batch) { () throws(StorePriceError) in
                        try batch.subscriptionText(at: position, options: plan.options)
                    }
                }
            }
            return batch
        }
    }

    /// Makes a product into rows (unless the product list leaves it out) and encodes them with
    /// ``RowEncoder``: a subscription, or a product whose price the options cannot show.
    private mutating func encodeRows(
        of product: Product, line: Int, into output: inout ByteBuffer, _ chunk: inout ChunkResults
    ) throws(StorePriceError) {
        var rows = RowValues()
        try appendRows(of: product, line: line, to: &rows, &chunk)
        guard !rows.products.isEmpty else { return }
        try encoder.encode(try rows.batch(plan: plan), into: &output)
        chunk.localesWithoutWording.formUnion(encoder.localesWithoutWording)
    }

    /// Appends a product's rows to `rows` (unless the product list leaves it out): one per target
    /// that has a price, in target order; a product lacking some is an invalid product.
    private mutating func appendRows(
        of product: Product, line: Int, to rows: inout RowValues, _ chunk: inout ChunkResults
    ) throws(StorePriceError) {
        chunk.products.append((product.id, line))
        if let wanted = plan.wanted, !wanted.contains(product.id) { return }
        chunk.renderedProducts += 1
        readProduct(product, line: line)
        let index = Int32(rows.products.count)
        rows.products.append(product)
        let hasTitles = !product.titles.isEmpty
        if hasTitles {
            if chainTitle.count != plan.chains.count { chainTitle = Array(repeating: -2, count: plan.chains.count) }
            for chain in chainTitle.indices { chainTitle[chain] = -2 }
        }
        var missing = false
        for target in 0..<targetStorefront.count {
            let slot = slots[targetStorefront[target]]
            guard slot.stamp == serial else {
                missing = true
                continue
            }
            let price = try priceSlot(
                target: target, number: slot.amount, of: product, line: line, overflow: &rows.overflow, &chunk)
            var title: Int32 = -1
            if hasTitles {
                let chain = plan.targetChain[target]
                title = chainTitle[chain]
                if title == -2 {
                    title = -1
                    if let text = product.title(following: plan.chains[chain]) {
                        title = Int32(rows.titles.count)
                        rows.titles.append(text)
                    }
                    chainTitle[chain] = title
                }
            }
            rows.entries.append(RenderedBatch.Entry(product: index, target: Int32(target), price: price, title: title))
            chunk.rows += 1
        }
        if missing { noteMissingTargets(of: product.id, &chunk) }
    }

    /// The price-store slot of a target's price, numbered `number` in the current tables; when the
    /// store is full, `-1 - i` for `overflow[i]`.
    ///
    /// In a run that hands rows, a (target, amount) pair is formatted once per run, its slot kept
    /// as its cached part; in one that hands bytes, once per worker.
    private mutating func priceSlot(
        target: Int, number: Int32, of product: Product, line: Int, overflow: inout [PriceStore.Slot],
        _ chunk: inout ChunkResults
    ) throws(StorePriceError) -> Int32 {
        let key = target << 32 | Int(UInt32(bitPattern: number))
        if plan.handsRows {
            if let record = tables.part(target: target, number: number) {
                return record.load(fromByteOffset: MemoryLayout<Int>.stride, as: Int32.self)
            }
        } else {
            if knownSlotsTables !== tables {
                knownSlots.removeAll()
                knownSlotsTables = tables
            }
            if let known = knownSlots[key] { return known }
        }
        let storefront = targetStorefront[target]
        guard let price = tables.price(currency: storefrontCurrency[storefront], number: number) else {
            throw .icuFailure(code: "U_INTERNAL_PROGRAM_ERROR", operation: "find the price numbered \(number)")
        }
        let pair = plan.targetPair[target]
        plan.compilation.prepare(pair)
        let formatted: String
        do {
            formatted = try plan.formatters[pair].format(price)
        } catch {
            throw refusal(error, of: product, line: line, in: target)
        }
        chunk.formats += 1
        let made = PriceStore.Slot(price: price, formatted: formatted)
        guard let slot = plan.priceStore.append(made) else {
            overflow.append(made)
            return Int32(-overflow.count)
        }
        if plan.handsRows {
            var bytes = slot
            _ = withUnsafeBytes(of: &bytes) { raw in
                tables.store(target: target, number: number, raw.bindMemory(to: UInt8.self), worker: worker)
            }
        } else {
            knownSlots[key] = slot
        }
        return slot
    }

    /// Why a price cannot be shown under the run's options, naming the product and target as
    /// its file wrote them, or, for a product made in memory, by its place among the products
    /// (`line`, counted from ``lineOffset``).
    private func refusal(_ error: StorePriceError, of product: Product, line: Int, in target: Int) -> StorePriceError {
        let target = plan.targets[target]
        guard let origin = product.origin else {
            return .invalidCatalog(
                source: "products in memory", line: nil, field: "products[\(lineOffset + line - 1)] in \(target)",
                reason: error.description)
        }
        return origin.error(error, storefrontID: target.storefront.numericID, target: target.description)
    }

    /// Bytes after a chunk's input that ``render(_:into:_:)`` may read (and never uses): the
    /// input must be followed by this many readable bytes.
    static let padding = 64

    /// Reads the lines from `start` that price the current product again with an upper-case
    /// alpha-3 code and an amount of at most 16 bytes already numbered, recording each in its
    /// storefront's slot; returns where the first other line starts (or the chunk's end), which
    /// the general path reads, with its checks and errors.
    ///
    /// Such a line is the current ID, a comma, three letters, a comma and the amount: it is
    /// compared and cut in place, eight bytes at a time, reading at most 40 bytes past the
    /// amount's start (within ``padding`` of the chunk's end).
    @inline(__always)
    private mutating func pricesOfSameProduct(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, line: inout Int
    ) -> Int {
        guard let alpha3 = alpha3.baseAddress, let storefrontCurrency = storefrontCurrency.baseAddress,
            let slots = slots.baseAddress
        else { return start }
        let id = UnsafeRawPointer(currentID.base)
        let idLength = currentID.count
        let raw = UnsafeRawPointer(base)
        let table = tables.amountTable()
        let serial = serial
        var position = start
        while true {
            let amountStart = position &+ idLength &+ 5
            guard amountStart < count, base[position &+ idLength] == UInt8(ascii: ","),
                base[position &+ idLength &+ 4] == UInt8(ascii: ","),
                Self.equalBytes(raw + position, id, idLength)
            else { return position }
            let c0 = Int(base[position &+ idLength &+ 1]) &- 65
            let c1 = Int(base[position &+ idLength &+ 2]) &- 65
            let c2 = Int(base[position &+ idLength &+ 3]) &- 65
            guard UInt(bitPattern: c0) < 26, UInt(bitPattern: c1) < 26, UInt(bitPattern: c2) < 26 else { return position }
            let storefront = Int(alpha3[c0 &* 676 &+ c1 &* 26 &+ c2])
            guard storefront >= 0, slots[storefront].stamp != serial else { return position }
            // The line's newline within 32 bytes, eight at a time: the lowest byte equal to a
            // newline, by the zero-byte trick on the word XOR newlines (bytes above the first
            // match may be flagged wrongly, never below).
            var newline = -1
            var word = amountStart
            for _ in 0..<4 {
                let bits = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: word, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
                let found = (bits &- 0x0101_0101_0101_0101) & ~bits & 0x8080_8080_8080_8080
                if found != 0 {
                    newline = word &+ found.trailingZeroBitCount >> 3
                    break
                }
                word &+= 8
            }
            // None within the chunk: the file's last line, which ends at the chunk's end.
            if newline >= count || (newline < 0 && amountStart &+ 32 >= count) { newline = count }
            guard newline >= 0 else { return position }
            var lineEnd = newline
            if base[lineEnd &- 1] == UInt8(ascii: "\r") { lineEnd &-= 1 }
            let length = lineEnd &- amountStart
            guard length > 0, length <= 16 else { return position }
            let (a, b) = PriceTables.words(at: raw + amountStart, length: length)
            let tag = PriceTables.tag(currency: storefrontCurrency[storefront], length: length)
            guard let number = PriceTables.number(a, b, tag: tag, in: table) else { return position }
            line &+= 1
            slots[storefront] = Slot(stamp: serial, amount: number, line: line, lineStart: position)
            position = newline &+ 1
            guard position < count else { return count }
        }
    }

    /// Whether `count` bytes at `a` and `b` are equal, compared eight at a time; at least eight
    /// bytes from each must be readable.
    @inline(__always)
    private static func equalBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
        guard count >= 8 else {
            var index = 0
            while index < count {
                if a.load(fromByteOffset: index, as: UInt8.self) != b.load(fromByteOffset: index, as: UInt8.self) { return false }
                index &+= 1
            }
            return true
        }
        var index = 0
        while index &+ 8 < count {
            if a.loadUnaligned(fromByteOffset: index, as: UInt64.self) != b.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index &+= 8
        }
        return a.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            == b.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    }

    private static func field(_ fields: (Field, Field, Field), _ index: Int) -> Field {
        switch index {
        case 0: fields.0
        case 1: fields.1
        default: fields.2
        }
    }

    private func fail(_ chunk: inout ChunkResults, _ line: Int, _ field: String?, _ reason: String) {
        chunk.failure = BulkFailure(line: line, field: field, reason: reason)
        chunk.lines = line
    }

    /// The storefront of an upper-case alpha-3 code, by table; -1 for any other code.
    @inline(__always)
    private func fastStorefrontIndex(_ code: UnsafeBufferPointer<UInt8>) -> Int {
        guard code.count == 3 else { return -1 }
        let a = Int(code[0]) &- 65, b = Int(code[1]) &- 65, c = Int(code[2]) &- 65
        guard UInt(bitPattern: a) < 26, UInt(bitPattern: b) < 26, UInt(bitPattern: c) < 26 else { return -1 }
        return Int(alpha3[a * 676 + b * 26 + c])
    }

    /// The storefront of any other code, by ``Storefront/init(_:)``, or the error for it.
    private mutating func storefrontIndex(_ code: UnsafeBufferPointer<UInt8>) -> Result<Int, StorePriceError> {
        let text = String(decoding: code, as: UTF8.self)
        // Only ASCII codes are kept: a lookup by Swift string would find "K" for the Kelvin sign.
        let isASCII = code.allSatisfy { $0 < 0x80 }
        if isASCII, let known = otherCodes[text] { return known }
        let result = Result { () throws(StorePriceError) -> Int in
            let storefront = try Storefront(text)
            return plan.storefrontIndexByID[storefront.numericID] ?? 0
        }
        if isASCII, otherCodes.count < 4096 { otherCodes[text] = result }
        return result
    }

    /// Writes the current product's rows, one per target in target order; false when a price
    /// cannot be shown, with the chunk's failure set.
    private mutating func finishProduct(
        _ chunk: inout ChunkResults, _ output: inout ByteBuffer, _ input: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let id = String(decoding: currentID.bytes, as: UTF8.self)
        chunk.products.append((id, currentLine))
        if plan.readsProducts {
            chunk.read.append(productOfLines(id, input))
            return true
        }
        if let wanted = plan.wanted, !wanted.contains(id) { return true }
        chunk.renderedProducts += 1
        productBytes.removeAll()
        plan.layout.writeProductPart(currentID.bytes, into: &productBytes)
        let productLength = productBytes.count
        // One block per distinct row end: the suffix for each title the targets show.
        block.removeAll()
        blockCount = 0
        let uniform = titles.isEmpty
        if uniform {
            appendBlock(plan.layout.suffix)
        } else {
            var chainTitles: [String?] = []
            for chain in plan.chains {
                chainTitles.append(Product.title(in: titles, defaultLanguage: defaultTitleLanguage, following: chain))
            }
            var blockOfTitle: [String?: Int32] = [:]
            for target in 0..<targetBlock.count {
                let title = chainTitles[plan.targetChain[target]]
                if let known = blockOfTitle[title] {
                    targetBlock[target] = known
                } else {
                    let index = Int32(blockCount)
                    blockOfTitle[title] = index
                    targetBlock[target] = index
                    appendBlock(plan.layout.suffix(title: title))
                }
            }
        }
        var blockLength = 0
        for index in 0..<blockCount { blockLength = max(blockLength, blockRanges[index].count) }
        let blocksBase = UnsafePointer(block.base)
        // Room for every row is reserved up front for parts as long as the longest so far, and
        // again when a longer part is met, made by this worker or another.
        var missing = false
        let targetCount = targetStorefront.count
        output.reserve(productLength + targetCount * (longestPart + blockLength))
        var out = output.end
        memcpy(out, productBytes.base, productLength)
        out += productLength
        var rows = 0
        let tables = tables
        if _slowPath(!toldFirstProduct) {
            // The formatters the catalog's first product needs are the ones to build ahead.
            toldFirstProduct = true
            var pairs: [Int] = []
            for target in 0..<targetCount where slots[targetStorefront[target]].stamp == serial {
                pairs.append(plan.targetPair[target])
            }
            plan.compilation.expect(pairs)
        }
        for target in 0..<targetCount {
            let slot = slots[targetStorefront[target]]
            guard slot.stamp == serial else {
                missing = true
                continue
            }
            var found = tables.part(target: target, number: slot.amount)
            if _slowPath(found == nil) {
                found = makePart(target: target, slot: slot, input: input, chunk: &chunk)
            }
            guard let record = found else { return false }
            let count = record.load(as: Int.self)
            if _slowPath(count > longestPart) {
                output.didWrite(output.end.distance(to: out))
                longestPart = count
                output.reserve((targetCount - target) * (longestPart + blockLength))
                out = output.end
            }
            memcpy(out, record + MemoryLayout<Int>.stride, count)
            out += count
            let range = blockRanges[uniform ? 0 : Int(targetBlock[target])]
            memcpy(out, blocksBase + range.start, range.count)
            out += range.count
            rows += 1
        }
        // The last row is followed by no product part.
        output.didWrite(output.end.distance(to: out) - productLength)
        chunk.rows += rows
        if missing { noteMissingTargets(of: id, &chunk) }
        return true
    }

    /// The current product of a CSV chunk as a ``Product``, each price with the line and text
    /// its file wrote it on: what a catalog reader hands on. Lines are counted from
    /// ``lineOffset``.
    private func productOfLines(_ id: String, _ input: UnsafeBufferPointer<UInt8>) -> Product {
        var prices: [Int: Price] = [:]
        var places: [Int: ProductOrigin.PriceSource] = [:]
        for storefront in 0..<plan.storefronts.count where slots[storefront].stamp == serial {
            let slot = slots[storefront]
            guard let price = tables.price(currency: storefrontCurrency[storefront], number: slot.amount) else { continue }
            let numericID = plan.storefronts[storefront].numericID
            prices[numericID] = price
            places[numericID] = ProductOrigin.PriceSource(
                line: lineOffset + slot.line, field: "price", written: writtenAmount(input, lineStart: slot.lineStart))
        }
        return Product(
            checkedID: id, prices: prices, titles: [:], descriptions: [:],
            origin: ProductOrigin(source: plan.source, prices: places))
    }

    /// Reports the current product as invalid for the targets it has no price for.
    private mutating func noteMissingTargets(of id: String, _ chunk: inout ChunkResults) {
        missingTargets.removeAll(keepingCapacity: true)
        for target in 0..<targetStorefront.count where slots[targetStorefront[target]].stamp != serial {
            missingTargets.append(target)
        }
        // Products that lack the same storefronts share one list of their codes.
        if missingTargets != lastMissing.targets {
            lastMissing = (missingTargets, Set(missingTargets.map { plan.targets[$0].storefront.countryCode }).sorted())
        }
        chunk.invalid.append(InvalidProduct(productID: id, reason: .noPrice(storefronts: lastMissing.codes)))
    }

    /// Appends a block: a row's end, then the current product's part.
    private mutating func appendBlock(_ suffix: [UInt8]) {
        let start = block.count
        block.append(suffix)
        block.append(UnsafePointer(productBytes.base), count: productBytes.count)
        blockRanges[blockCount] = BlockRange(start: start, count: block.count - start)
        blockCount += 1
    }

    /// Numbers an amount of a currency met for the first time, with its price; what ``Price``
    /// throws for text that is not an amount.
    private func addAmount(_ amount: UnsafeBufferPointer<UInt8>, currency: Int) throws(StorePriceError) -> Int32 {
        let price = try Price(String(decoding: amount, as: UTF8.self), currency: plan.currencies[currency])
        return tables.add(amount, currency: currency, price: price, worker: worker)
    }

    /// Formats a (target, amount) pair with ICU and keeps its encoded part; nil when the price
    /// cannot be shown under the options, with the chunk's failure naming the line.
    private mutating func makePart(
        target: Int, slot: Slot, input: UnsafeBufferPointer<UInt8>, chunk: inout ChunkResults
    ) -> UnsafeRawPointer? {
        let storefront = targetStorefront[target]
        guard let price = tables.price(currency: storefrontCurrency[storefront], number: slot.amount) else {
            fail(&chunk, slot.line, "price for \(plan.targets[target].description)", "internal error: no price for amount \(slot.amount)")
            return nil
        }
        let part: UnsafeRawPointer?
        do throws(StorePriceError) {
            part = try formatPart(target: target, number: slot.amount, price: price)
        } catch {
            var reason = error.description
            if case .excessPrecision(_, let code, let digits) = error {
                // Quoted as the file writes it, not as Price normalizes it.
                reason = StorePriceError.excessPrecision(
                    amount: writtenAmount(input, lineStart: slot.lineStart), currency: code, fractionDigits: digits
                ).description
            }
            chunk.failure = BulkFailure(line: slot.line, field: "price for \(plan.targets[target].description)", reason: reason)
            chunk.lines = slot.line
            return nil
        }
        chunk.formats += 1
        guard let part else {
            fail(&chunk, slot.line, "price for \(plan.targets[target].description)", "internal error: the part was not kept")
            return nil
        }
        return part
    }

    /// Formats a price for a target with ICU and keeps its encoded part: the part kept for the
    /// pair (another worker's, when it stored one first), or nil when the table kept none.
    private mutating func formatPart(target: Int, number: Int32, price: Price) throws(StorePriceError) -> UnsafeRawPointer? {
        // The target's part, then the price's, straight from ICU's UTF-8.
        partBytes.removeAll()
        partBytes.append(plan.layout.targetParts[target])
        let pair = plan.targetPair[target]
        // At once when the formatter is built: one atomic load (see `FormatterCompilation`).
        plan.compilation.prepare(pair)
        try plan.formatters[pair].withFormattedUTF8(price) { formatted in
            plan.layout.appendPricePart(amount: price.amount, formatted: formatted, into: &partBytes)
        }
        return tables.store(target: target, number: number, partBytes.bytes, worker: worker)
    }

    /// The amount of a storefront's price as its line writes it.
    private func writtenAmount(_ input: UnsafeBufferPointer<UInt8>, lineStart start: Int) -> String {
        var end = start
        while end < input.count, input[end] != UInt8(ascii: "\n") { end += 1 }
        if end > start, input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)
        let fields = (try? CSVCatalogReader.fields(text, source: plan.source, line: 0)) ?? []
        return plan.columns.price < fields.count ? fields[plan.columns.price] : text
    }

    /// Whether every byte is ASCII, 64 at a time.
    private static func isASCII(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let raw = UnsafeRawPointer(base)
        var index = 0
        var bits = SIMD16<UInt8>()
        while index &+ 64 <= count {
            bits |= raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                | raw.loadUnaligned(fromByteOffset: index &+ 16, as: SIMD16<UInt8>.self)
                | raw.loadUnaligned(fromByteOffset: index &+ 32, as: SIMD16<UInt8>.self)
                | raw.loadUnaligned(fromByteOffset: index &+ 48, as: SIMD16<UInt8>.self)
            index &+= 64
        }
        var tail: UInt8 = 0
        while index < count {
            tail |= base[index]
            index &+= 1
        }
        return bits.max() < 0x80 && tail < 0x80
    }
}

/// A worker's renderer, lent to one chunk at a time.
///
/// Sendable notes: taken from and returned to a locked list; one thread holds it at a time.
final class RendererBox: @unchecked Sendable {
    var renderer: ChunkRenderer
    /// Whether chunks are JSON Lines rather than CSV.
    let jsonLines: Bool

    init(_ renderer: consuming ChunkRenderer, jsonLines: Bool) {
        self.renderer = renderer
        self.jsonLines = jsonLines
    }

    /// Renders a chunk into its output and results.
    func render(_ chunk: BulkChunk) {
        chunk.output.removeAll()
        chunk.results = ChunkResults()
        if !chunk.products.isEmpty {
            renderer.lineOffset = chunk.firstLine - 1
            renderer.renderProducts(chunk.products, into: &chunk.output, &chunk.results)
        } else if jsonLines {
            renderer.renderJSONLines(chunk.input.bytes, into: &chunk.output, &chunk.results)
        } else {
            renderer.render(chunk.input.bytes, into: &chunk.output, &chunk.results)
        }
    }
}
