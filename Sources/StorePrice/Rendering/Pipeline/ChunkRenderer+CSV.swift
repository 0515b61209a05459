#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The CSV reader of a bulk run's worker: cuts a chunk of a CSV catalog into lines and fields on
/// their bytes, gathers each product's prices into the worker's slots, and hands the product to
/// ``ChunkRenderer``'s row writing.
extension ChunkRenderer {
    struct Field {
        var start: UnsafePointer<UInt8>
        var count: Int
        var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }
    }

    /// A line without quotes cut at its first two commas, the third field running to its end;
    /// nil for a line with fewer than two.
    static func plainFields(_ start: UnsafePointer<UInt8>, _ length: Int) -> (Field, Field, Field)? {
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
    mutating func renderPrice(
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

    /// Reads the lines from `start` that price the current product again with an upper-case
    /// alpha-3 code and an amount of at most 16 bytes already numbered, recording each in its
    /// storefront's slot; returns where the first other line starts (or the chunk's end), which
    /// the general path reads, with its checks and errors.
    ///
    /// Such a line is the current ID, a comma, three letters, a comma and the amount: it is
    /// compared and cut in place, eight bytes at a time, reading at most 40 bytes past the
    /// amount's start (within ``padding`` of the chunk's end).
    @inline(__always)
    mutating func pricesOfSameProduct(
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

    static func field(_ fields: (Field, Field, Field), _ index: Int) -> Field {
        switch index {
        case 0: fields.0
        case 1: fields.1
        default: fields.2
        }
    }

    /// The current product of a CSV chunk as a ``Product``, each price with the line and text
    /// its file wrote it on: what a catalog reader hands on. Lines are counted from
    /// ``lineOffset``.
    func productOfLines(_ id: String, _ input: UnsafeBufferPointer<UInt8>) -> Product {
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
}
