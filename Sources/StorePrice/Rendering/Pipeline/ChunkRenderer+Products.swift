#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Products in memory, for a bulk run's worker: their prices are read into the worker's slots and
/// written as a catalog line's are, or made into rows as values for a run that hands rows.
extension ChunkRenderer {
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
    mutating func readProduct(_ product: Product, line: Int) {
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
                guard let entry = product.packedPrice(inStorefront: plan.storefronts[storefront].numericID),
                    let number = numbered(product, entry, currency: storefrontCurrency[storefront])
                else { continue }
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
    func numbered(_ product: Product, _ entry: Product.PackedPrice, currency: Int) -> Int32? {
        func number(_ amount: UnsafeBufferPointer<UInt8>) -> Int32? {
            if let known = tables.number(amount, currency: currency, worker: worker) { return known }
            guard let price = product.price(inStorefront: Int(entry.storefrontID)) else { return nil }
            return tables.add(amount, currency: currency, price: price, worker: worker)
        }
        if entry.amount != 0 {
            var bytes = entry.amount.littleEndian
            let length = 8 - entry.amount.leadingZeroBitCount / 8
            return withUnsafeBytes(of: &bytes) { raw in
                number(UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: length))
            }
        }
        guard var text = product.longPrices[Int(entry.storefrontID)]?.amount else { return nil }
        return text.withUTF8 { number($0) }
    }

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
    mutating func encodeRows(
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
    mutating func appendRows(
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
    mutating func priceSlot(
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
    func refusal(_ error: StorePriceError, of product: Product, line: Int, in target: Int) -> StorePriceError {
        let target = plan.targets[target]
        guard let origin = product.origin else {
            return .invalidCatalog(
                source: "products in memory", line: nil, field: "products[\(lineOffset + line - 1)] in \(target)",
                reason: error.description)
        }
        return origin.error(error, storefrontID: target.storefront.numericID, target: target.description)
    }
}
