#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One worker of a bulk run: reads a chunk, renders each product for every target and writes the
/// rows into the chunk's output.
///
/// Three readers fill the worker's per-storefront slots with a product's amounts, each in a file
/// of its own: `ChunkRenderer+CSV.swift` (a CSV catalog's lines), `ChunkRenderer+JSONLines.swift`
/// (a JSON Lines catalog's lines) and `ChunkRenderer+Products.swift` (products in memory, and
/// rows as values). This file holds what they share: the slots and tables, and the writing of a
/// product's rows from the slots (``finishProduct(_:_:_:)``), each (target, amount) pair's part
/// formatted by ICU once.
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
    let plan: BulkPlan
    /// The amounts and parts of the run, and where fresh ones come from when they fill up.
    let generations: PriceTables.Generations
    var tables: PriceTables
    /// This worker's number in the run, from 0.
    let worker: Int
    /// Codes other than upper-case alpha-3 (`us`, `143441`), by their text: a storefront index,
    /// or the error for an unknown code.
    var otherCodes: [String: Result<Int, StorePriceError>] = [:]
    /// Whether this worker has told which formatters its first product needs.
    var toldFirstProduct = false
    /// The targets the current product has no price for, when it lacks some.
    var missingTargets: [Int] = []
    /// The targets the last invalid product lacked, and their storefronts' codes, sorted.
    var lastMissing: (targets: [Int], codes: [String]) = ([], [])

    // The current product.
    var currentID = ByteBuffer(capacity: 256)
    var currentLine = 0
    var hasProduct = false
    var serial: Int32 = 0
    /// Per storefront: the product serial that priced it, its amount number, line and line start.
    struct Slot {
        var stamp: Int32 = -1
        var amount: Int32 = 0
        var line = 0
        var lineStart = 0
    }
    let slots: UnsafeMutableBufferPointer<Slot>
    /// The plan's per-row tables, copied into memory this worker owns: read on every row without
    /// reference counting or bounds checks (every index comes from the plan itself).
    let storefrontCurrency: UnsafeMutableBufferPointer<Int>
    let alpha3: UnsafeMutableBufferPointer<Int16>
    let targetStorefront: UnsafeMutableBufferPointer<Int>
    let storefrontIsTarget: UnsafeMutableBufferPointer<Bool>
    /// What ends a row and starts the next one of the same product: the row's suffix, then the
    /// product's part. A product's rows are its part, then each target's part and its block,
    /// less the last block's product part. One block for a product without titles; with titles,
    /// one per distinct title the targets show, and each target's block.
    var block = ByteBuffer(capacity: 512)
    struct BlockRange {
        var start = 0
        var count = 0
    }
    /// Where each block is in `block`: one per target at most, read on every row.
    let blockRanges: UnsafeMutableBufferPointer<BlockRange>
    var blockCount = 0
    let targetBlock: UnsafeMutableBufferPointer<Int32>
    /// The current product's part of its rows.
    var productBytes = ByteBuffer(capacity: 256)
    /// The current product's titles by normalized language tag (JSON Lines catalogs, products).
    var titles: [String: String] = [:]
    /// The current product's default title language (a product read from a `.storekit` file).
    var defaultTitleLanguage: String?
    /// Products in memory: the current product's last amount and its number, per currency.
    var lastNumber: [Int32]
    var lastPacked: [UInt64]
    /// The longest part met so far.
    var longestPart = 0
    /// The fields of a line with quotes, unquoted.
    var scratch = ByteBuffer(capacity: 256)
    /// A part being made.
    var partBytes = ByteBuffer(capacity: 512)

    /// Lines of a JSON Lines catalog not of the usual shape (subscriptions, escapes, errors) are
    /// read by the reader's own parser, made into rows as values and encoded by ``RowEncoder``.
    var lineParser: JSONLinesLineParser
    var encoder: RowEncoder
    /// Price-store slots of (target, amount number) pairs this worker formatted for rows encoded
    /// by ``RowEncoder``, in a run that hands bytes, and the tables whose numbers they are.
    var knownSlots: [Int: Int32] = [:]
    var knownSlotsTables: PriceTables?
    /// The title index of each title chain for the product being made into rows; -2 for not
    /// looked up yet.
    var chainTitle: [Int32] = []
    /// The lines of the file before the chunk being read, for the products a catalog reader
    /// reads (``BulkPlan/readsProducts``), or the products before a chunk of products.
    var lineOffset = 0
    /// The current line's title and description language tags as written, and their texts.
    var titleTags = LanguageTagSet()
    var descriptionTags = LanguageTagSet()

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

    /// Bytes after a chunk's input that ``render(_:into:_:)`` may read (and never uses): the
    /// input must be followed by this many readable bytes.
    static let padding = 64

    /// Whether `count` bytes at `a` and `b` are equal, compared eight at a time; at least eight
    /// bytes from each must be readable.
    @inline(__always)
    static func equalBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ count: Int) -> Bool {
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

    func fail(_ chunk: inout ChunkResults, _ line: Int, _ field: String?, _ reason: String) {
        chunk.failure = BulkFailure(line: line, field: field, reason: reason)
        chunk.lines = line
    }

    /// The storefront of an upper-case alpha-3 code, by table; -1 for any other code.
    @inline(__always)
    func fastStorefrontIndex(_ code: UnsafeBufferPointer<UInt8>) -> Int {
        guard code.count == 3 else { return -1 }
        let a = Int(code[0]) &- 65, b = Int(code[1]) &- 65, c = Int(code[2]) &- 65
        guard UInt(bitPattern: a) < 26, UInt(bitPattern: b) < 26, UInt(bitPattern: c) < 26 else { return -1 }
        return Int(alpha3[a * 676 + b * 26 + c])
    }

    /// The storefront of any other code, by ``Storefront/init(_:)``, or the error for it.
    mutating func storefrontIndex(_ code: UnsafeBufferPointer<UInt8>) -> Result<Int, StorePriceError> {
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
    mutating func finishProduct(
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

    /// Reports the current product as invalid for the targets it has no price for.
    mutating func noteMissingTargets(of id: String, _ chunk: inout ChunkResults) {
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
    mutating func appendBlock(_ suffix: [UInt8]) {
        let start = block.count
        block.append(suffix)
        block.append(UnsafePointer(productBytes.base), count: productBytes.count)
        blockRanges[blockCount] = BlockRange(start: start, count: block.count - start)
        blockCount += 1
    }

    /// Numbers an amount of a currency met for the first time, with its price; what ``Price``
    /// throws for text that is not an amount.
    func addAmount(_ amount: UnsafeBufferPointer<UInt8>, currency: Int) throws(StorePriceError) -> Int32 {
        let price = try Price(String(decoding: amount, as: UTF8.self), currency: plan.currencies[currency])
        return tables.add(amount, currency: currency, price: price, worker: worker)
    }

    /// Formats a (target, amount) pair with ICU and keeps its encoded part; nil when the price
    /// cannot be shown under the options, with the chunk's failure naming the line.
    mutating func makePart(
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
    mutating func formatPart(target: Int, number: Int32, price: Price) throws(StorePriceError) -> UnsafeRawPointer? {
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
    func writtenAmount(_ input: UnsafeBufferPointer<UInt8>, lineStart start: Int) -> String {
        var end = start
        while end < input.count, input[end] != UInt8(ascii: "\n") { end += 1 }
        if end > start, input[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)
        let fields = (try? CSVCatalogReader.fields(text, source: plan.source, line: 0)) ?? []
        return plan.columns.price < fields.count ? fields[plan.columns.price] : text
    }

    /// Whether every byte is ASCII, 64 at a time.
    static func isASCII(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
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
