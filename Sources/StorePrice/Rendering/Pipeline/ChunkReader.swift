#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a CSV catalog in chunks of about ``BulkRenderer/chunkSize`` bytes, each ending at a
/// product boundary, so that workers can render chunks independently.
///
/// A chunk ends after a line whose product differs from the next line's. The bytes after that are
/// carried to the next chunk. The header is read first, with the same checks and messages as
/// ``CSVCatalogReader``.
final class ChunkReader {
    /// Where chunks may end.
    enum Cut {
        /// After a line whose product differs from the next line's: a CSV catalog, whose header
        /// is read first.
        case products
        /// After any line: a JSON Lines catalog, one product per line.
        case lines
    }

    private let cut: Cut
    private let file: InputFile
    private var pending = ByteBuffer(capacity: 1 << 16)
    private var atEnd = false
    /// Bytes of the file handed out so far, the header's included.
    private var consumed = 0
    private var columns: (product: Int, storefront: Int, price: Int) = (0, 1, 2)

    /// What one line holds, for the too-long error: "one product or price".
    private let lineHolds: String
    /// Lines handed out so far, when counted.
    private var linesHandedOut = 0
    private let countsLines: Bool

    /// - Parameters:
    ///   - countsLines: whether each chunk is told the number of its first line in the file
    ///     (``BulkChunk/firstLine``), for work that names lines in its output.
    convenience init(
        path: String, cut: Cut = .products, lineHolds: String = "one product or price", countsLines: Bool = false
    ) throws(StorePriceError) {
        try self.init(file: InputFile(path: path), cut: cut, lineHolds: lineHolds, countsLines: countsLines)
    }

    /// A catalog already in memory, named `name` in errors.
    convenience init(bytes: [UInt8], name: String, cut: Cut) {
        self.init(file: InputFile(bytes: bytes, name: name), cut: cut, lineHolds: "one product or price", countsLines: false)
    }

    private init(file: InputFile, cut: Cut, lineHolds: String, countsLines: Bool) {
        self.cut = cut
        self.lineHolds = lineHolds
        self.countsLines = countsLines
        self.file = file
    }

    /// Drops a UTF-8 byte order mark at the start of the file, as ``LineReader`` does; true when
    /// the mark was all the file held, which ``LineReader`` reads as one empty line.
    @discardableResult
    func skipByteOrderMark() throws(StorePriceError) -> Bool {
        try fill(&pending, upTo: 4)
        let bytes = pending.bytes
        guard bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return false }
        pending.removeFirst(3)
        consumed += 3
        return pending.count == 0 && atEnd
    }

    var totalBytes: Int? { file.size }
    private var path: String { file.path }

    /// Reads and checks the header line: `product,storefront,price` in any order.
    func readHeader() throws(StorePriceError) -> (product: Int, storefront: Int, price: Int) {
        let limit = LineReader.maximumLineLength + 4
        var newline: Int?
        while true {
            newline = Self.firstNewline(pending.bytes)
            if newline != nil || atEnd { break }
            if pending.count > limit { break }
            try fill(&pending, upTo: pending.count + (1 << 16))
        }
        guard pending.count > 0 else {
            throw .invalidCatalog(source: path, line: 1, field: nil, reason: "empty; expected the header product,storefront,price")
        }
        let lineEnd = newline ?? pending.count
        var from = 0
        var to = lineEnd
        let bytes = pending.bytes
        if to >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { from = 3 }
        if to > from, bytes[to - 1] == UInt8(ascii: "\r") { to -= 1 }
        guard to - from <= LineReader.maximumLineLength, newline != nil || atEnd else {
            throw .invalidCatalog(
                source: path, line: 1, field: nil,
                reason: "longer than \(LineReader.maximumLineLength >> 20) MiB; a line holds \(lineHolds)")
        }
        guard let header = String(validating: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self) else {
            throw .invalidCatalog(source: path, line: 1, field: nil, reason: "not valid UTF-8")
        }
        columns = try CSVCatalogReader.columns(header: header, source: path)
        let taken = min(pending.count, lineEnd + 1)
        pending.removeFirst(taken)
        consumed += taken
        return columns
    }

    /// Fills `chunk.input` with the next piece of the catalog; false when nothing follows it.
    func next(into chunk: BulkChunk) throws(StorePriceError) -> Bool {
        chunk.input.removeAll()
        chunk.readFailure = nil
        scanned = (0, nil, false)
        if pending.count > 0 {
            chunk.input.append(UnsafePointer(pending.base), count: pending.count)
            pending.removeAll()
        }
        var target = BulkRenderer.chunkSize
        while true {
            try fill(&chunk.input, upTo: target)
            if atEnd {
                return handOut(chunk, upTo: chunk.input.count, last: true)
            }
            let bytes = chunk.input.bytes
            let lastNewline = Self.lastNewline(bytes, before: bytes.count)
            switch cut {
            case .products:
                if let boundary = productBoundary(bytes) { return handOut(chunk, upTo: boundary, last: false) }
            case .lines:
                if let lastNewline { return handOut(chunk, upTo: lastNewline + 1, last: false) }
            }
            let partial = bytes.count - ((lastNewline ?? -1) + 1)
            if partial > LineReader.maximumLineLength + 4 {
                // A line too long: the lines before it are rendered, then the run stops there.
                chunk.readFailure = BulkFailure(
                    line: 0, field: nil,
                    reason: "longer than \(LineReader.maximumLineLength >> 20) MiB; a line holds \(lineHolds)")
                atEnd = true
                return handOut(chunk, upTo: (lastNewline ?? -1) + 1, last: true)
            }
            guard chunk.input.count < BulkRenderer.productLimit else {
                // One product's lines are rendered up to the limit, so that a bad line among
                // them is reported first; then the run stops at the line after them.
                chunk.readFailure = BulkFailure(
                    line: 0, field: nil, reason: "one product's rows take more than \(BulkRenderer.productLimit >> 20) MiB")
                atEnd = true
                return handOut(chunk, upTo: (lastNewline ?? -1) + 1, last: true)
            }
            // One product's rows fill the chunk: read on to its end.
            target = chunk.input.count + BulkRenderer.chunkSize
        }
    }

    /// Ends the chunk at `cut` and keeps what follows for the next one.
    private func handOut(_ chunk: BulkChunk, upTo cut: Int, last: Bool) -> Bool {
        let count = chunk.input.count
        if cut < count, !last {
            pending.append(UnsafePointer(chunk.input.base + cut), count: count - cut)
        }
        chunk.input.truncate(to: cut)
        consumed += cut
        if countsLines {
            chunk.firstLine = linesHandedOut + 1
            var position = 0
            let bytes = chunk.input.bytes
            while position < bytes.count, let base = bytes.baseAddress,
                let newline = memchr(base + position, Int32(UInt8(ascii: "\n")), bytes.count - position)
            {
                linesHandedOut += 1
                position = base.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            }
        }
        chunk.fileOffset = consumed
        if last { pending.removeAll() }
        return !last
    }

    /// Reads until `buffer` holds `size` bytes or the file ends, and no further: where chunks
    /// are cut, and so what is written before an error, must not depend on the capacity a reused
    /// buffer happens to have.
    private func fill(_ buffer: inout ByteBuffer, upTo size: Int) throws(StorePriceError) {
        while !atEnd, buffer.count < size {
            buffer.reserve(size - buffer.count)
            let room = UnsafeMutableRawBufferPointer(start: buffer.end, count: size - buffer.count)
            let read = try file.read(into: room)
            if read == 0 { atEnd = true }
            buffer.didWrite(read)
        }
    }

    /// Where the last search for a boundary in the chunk being filled stopped: every complete line
    /// before `end` belongs to the product `id` (nil while those lines are blank), so a chunk that
    /// one product fills is searched once, not again each time it grows.
    private var scanned: (end: Int, id: [UInt8]?, prefixable: Bool) = (0, nil, false)

    /// Where a chunk may end: after the last line whose product differs from the product of the
    /// line after it. Nil when every complete line belongs to one product.
    ///
    /// Lines are walked back from the end to where the last search stopped; a line that starts
    /// with the last line's ID and a comma is that product's without being split (the ID is the
    /// first column and has no quote or comma).
    private func productBoundary(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard var lineEnd = Self.lastNewline(bytes, before: bytes.count), let base = bytes.baseAddress else { return nil }
        let searchedTo = lineEnd + 1
        var lastID: [UInt8]?
        // Only an ID that was written unquoted can be matched as a line's prefix: a quoted ID
        // holding a comma (`"com.x.p48,USA"`) is a prefix of another product's unquoted line.
        // Decided once per ID, not per line walked back.
        var lastIDIsPrefixable = false
        while true {
            if lineEnd < scanned.end {
                // The lines searched before are all of one product.
                if let known = scanned.id, let lastID, known != lastID { return scanned.end }
                if lastID == nil { (lastID, lastIDIsPrefixable) = (scanned.id, scanned.prefixable) }
                scanned = (searchedTo, lastID, lastIDIsPrefixable)
                return nil
            }
            let start = (Self.lastNewline(bytes, before: lineEnd) ?? -1) + 1
            var end = lineEnd
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end > start {
                if let lastID, lastIDIsPrefixable, end - start > lastID.count,
                    base[start + lastID.count] == UInt8(ascii: ","),
                    lastID.withUnsafeBufferPointer({ id in id.baseAddress.map { memcmp(base + start, $0, id.count) == 0 } ?? false })
                {
                    // The same product: nothing to compare.
                } else {
                    // A line that cannot be read ends the chunk; its worker reports it.
                    guard let id = productID(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return lineEnd + 1 }
                    if let lastID, id != lastID { return lineEnd + 1 }
                    if lastID == nil {
                        lastIDIsPrefixable = columns.product == 0 && !id.contains(UInt8(ascii: ",")) && !id.contains(UInt8(ascii: "\""))
                    }
                    lastID = id
                }
            }
            guard start > 0 else {
                scanned = (searchedTo, lastID, lastIDIsPrefixable)
                return nil
            }
            lineEnd = start - 1
        }
    }

    /// The product ID field of a line, unquoted; nil when the line has not three fields.
    private func productID(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if !line.contains(UInt8(ascii: "\"")) {
            let fields = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return Array(fields[columns.product])
        }
        guard let fields = try? CSVCatalogReader.fields(String(decoding: line, as: UTF8.self), source: path, line: 0),
            fields.count == 3
        else { return nil }
        return Array(fields[columns.product].utf8)
    }

    private static func firstNewline(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: "\n")), bytes.count) else {
            return nil
        }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The last newline before `end`, found eight bytes at a time: a chunk's end is found by
    /// walking back over a product's lines, about 6 KB for a product of the benchmark catalog.
    static func lastNewline(_ bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var index = min(end, bytes.count)
        while index >= 8 {
            // Each byte equal to a newline, exactly (no borrow between bytes): its high bit set.
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index - 8, as: UInt64.self)) ^ 0x0A0A_0A0A_0A0A_0A0A
            let low = (word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F
            let found = ~(low | word | 0x7F7F_7F7F_7F7F_7F7F)
            if found != 0 { return index - 8 + (63 - found.leadingZeroBitCount) / 8 }
            index -= 8
        }
        while index > 0 {
            index -= 1
            if base[index] == UInt8(ascii: "\n") { return index }
        }
        return nil
    }
}
