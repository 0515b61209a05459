#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The JSON Lines reader of a bulk run's worker: reads a line of the usual shape (product, prices,
/// titles) on its bytes into the worker's slots, and any other line with the JSON Lines reader's
/// parser, then hands the product to ``ChunkRenderer``'s row writing.
extension ChunkRenderer {
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
    mutating func readUsualLine(_ text: UnsafeBufferPointer<UInt8>, line: Int, lineStart: Int) -> Bool {
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
    mutating func recordPrice(
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
    mutating func renderOtherLine(
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
}
