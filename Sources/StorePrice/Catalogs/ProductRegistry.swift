#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Each product's first line in a bulk run, to find a product that appears twice, in memory that
/// stops growing at a window of products.
///
/// Products are kept as 16-byte digests with their first lines in a hash table of at most
/// `maximumSlots` entries (by default 2¹⁸, 6 MiB), and a repeat among them is found as it is
/// inserted. When the table is three quarters full (196,608 products by default), its oldest
/// quarter goes to a temporary file, sorted by digest, as a run: the table always holds at least
/// the last 147,456 products. From the first run on, each product's ID and line also go to a
/// second temporary file, for the error message. A repeat of a product in a run is found by
/// merging the runs, in ``earliestRepeat(before:)``, which a bulk run calls when its catalog
/// ends or another error stops it. Catalogs of up to 196,608 products never touch the disk.
///
/// Both files are in `TMPDIR` (or `/tmp`), removed from the directory as soon as they are
/// created, and take 24 bytes per product, and 12 bytes and the ID for each product after the
/// first 196,608, until the run ends.
final class ProductRegistry {
    /// A product that appears again on `line`, first on `first`.
    struct Repeat: Equatable {
        /// The product's ID.
        let id: String
        let line: Int
        let first: Int
    }

    private struct Slot {
        var digest: ProductIDDigest
        /// 0 for an empty slot: catalog lines count from 1.
        var line: Int

        static let empty = Slot(digest: ProductIDDigest(first: 0, second: 0), line: 0)
    }

    /// The most slots the table grows to.
    let maximumSlots: Int
    private var slots: [Slot]
    private var count = 0
    private var spill: SpillFiles?
    private var merged = false

    /// - Parameter maximumSlots: the largest table, rounded up to a power of two of at least 4;
    ///   3/4 of it is a window.
    init(maximumSlots: Int = 1 << 18) {
        self.maximumSlots = 1 << (Int.bitWidth - (max(4, maximumSlots) - 1).leadingZeroBitCount)
        slots = Array(repeating: .empty, count: min(1 << 10, self.maximumSlots))
    }

    /// The most products kept in memory; past them, the oldest quarter goes to disk.
    var window: Int { maximumSlots / 4 * 3 }
    /// The products that go to disk at a time.
    var quarter: Int { max(1, window / 4) }
    /// The fewest products kept in memory: a repeat of one of them is found at once.
    var recent: Int { window - quarter }
    /// Products inserted so far.
    private var inserted = 0
    /// The line of every `quarter`th product inserted, oldest first, from the oldest
    /// quarter in the table: where the next quarter to go to disk ends.
    private var quarters: [Int] = []

    /// Records the product on `line`, or returns the line it first appeared on, when that is
    /// among the products in memory.
    ///
    /// - Throws: ``StorePriceError/unwritableFile(path:reason:)`` when the temporary files
    ///   cannot be made or written.
    func insert(_ id: String, line: Int) throws(StorePriceError) -> Int? {
        assert(!merged, "a product inserted after the runs were merged")
        let digest = ProductIDDigest(id)
        if let first = find(digest) { return first }
        if count >= slots.count / 4 * 3 {
            if slots.count < maximumSlots {
                grow()
            } else {
                try spillOldestQuarter()
            }
        }
        place(Slot(digest: digest, line: line))
        count += 1
        if inserted % quarter == 0 { quarters.append(line) }
        inserted += 1
        try spill?.logID(id, line: line)
        return nil
    }

    /// The repeat with the lowest line before `bound` of a product that went to disk, or nil. It
    /// merges the runs and the table once, sorting the table in place: the registry takes no
    /// products after it.
    ///
    /// - Throws: ``StorePriceError`` when the temporary files cannot be read.
    func earliestRepeat(before bound: Int) throws(StorePriceError) -> Repeat? {
        guard let spill else { return nil }
        merged = true
        // The window in memory, sorted, as one more run.
        var current = 0
        for index in slots.indices where slots[index].line != 0 {
            slots[current] = slots[index]
            current += 1
        }
        slots[0..<current].sort { $0.digest < $1.digest }
        count = 0
        var sources = try spill.runs.map { run throws(StorePriceError) in
            try RunReader(spill: spill, run: run, buffer: max(256, (4 << 20) / MemoryLayout<Slot>.stride / max(1, spill.runs.count)))
        }
        var memory = 0
        /// The next slot of source `index`, the last being the window in memory.
        func head(_ index: Int) -> Slot? {
            if index < sources.count { return sources[index].current }
            return memory < current ? slots[memory] : nil
        }
        func advance(_ index: Int) throws(StorePriceError) {
            if index < sources.count { try sources[index].advance() } else { memory += 1 }
        }
        var heap = MergeHeap()
        for index in 0...sources.count {
            if let slot = head(index) { heap.push(slot.digest, index) }
        }
        var best: (line: Int, first: Int)?
        var group: (digest: ProductIDDigest, first: Int, second: Int)?
        func close() {
            guard let group, group.second < (best?.line ?? bound) else { return }
            best = (group.second, group.first)
        }
        while let (digest, index) = heap.pop() {
            guard let slot = head(index) else { break }
            if group?.digest == digest, var same = group {
                if slot.line < same.first {
                    same.second = same.first
                    same.first = slot.line
                } else if slot.line < same.second {
                    same.second = slot.line
                }
                group = same
            } else {
                close()
                group = (digest, slot.line, Int.max)
            }
            try advance(index)
            if let next = head(index) { heap.push(next.digest, index) }
        }
        close()
        guard let best else { return nil }
        return Repeat(id: try spill.id(onLine: best.line), line: best.line, first: best.first)
    }

    private func find(_ digest: ProductIDDigest) -> Int? {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: digest.first) & mask
        while slots[index].line != 0 {
            if slots[index].digest == digest { return slots[index].line }
            index = (index + 1) & mask
        }
        return nil
    }

    private func place(_ slot: Slot) {
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: slot.digest.first) & mask
        while slots[index].line != 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    private func grow() {
        let old = slots
        slots = Array(repeating: .empty, count: old.count * 2)
        for slot in old where slot.line != 0 { place(slot) }
    }

    /// Writes the oldest quarter of the table's products to disk, sorted by digest, and takes
    /// them out of the table.
    private func spillOldestQuarter() throws(StorePriceError) {
        // The table is full: `quarters` holds the first lines of its four quarters.
        let end = quarters.count > 1 ? quarters[1] : Int.max
        var oldest: [Slot] = []
        oldest.reserveCapacity(quarter)
        for slot in slots where slot.line != 0 && slot.line < end { oldest.append(slot) }
        oldest.sort { $0.digest < $1.digest }
        if spill == nil { spill = try SpillFiles(window: window) }
        guard let spill else { return }
        let failure = oldest.withUnsafeBytes { spill.appendRun($0, count: oldest.count) }
        if let failure { throw failure }
        for slot in oldest { remove(slot.digest) }
        count -= oldest.count
        quarters.removeFirst()
    }

    /// Takes a digest out of the table, moving the entries after it in its cluster back so that
    /// each stays reachable from its home slot.
    private func remove(_ digest: ProductIDDigest) {
        let mask = slots.count - 1
        var hole = Int(truncatingIfNeeded: digest.first) & mask
        while slots[hole].line != 0, slots[hole].digest != digest { hole = (hole + 1) & mask }
        guard slots[hole].line != 0 else { return }
        slots[hole].line = 0
        var next = hole
        while true {
            next = (next + 1) & mask
            guard slots[next].line != 0 else { return }
            let home = Int(truncatingIfNeeded: slots[next].digest.first) & mask
            // The entry stays when its home lies cyclically after the hole, up to where it is.
            let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if stays { continue }
            slots[hole] = slots[next]
            slots[next].line = 0
            hole = next
        }
    }

    /// A run on disk, read a buffer at a time.
    private struct RunReader {
        let spill: SpillFiles
        var next: Int
        var remaining: Int
        var buffer: [Slot]
        var filled = 0
        var position = 0

        init(spill: SpillFiles, run: (offset: Int, count: Int), buffer size: Int) throws(StorePriceError) {
            self.spill = spill
            next = run.offset
            remaining = run.count
            buffer = Array(repeating: Slot.empty, count: min(size, run.count))
            try refill()
        }

        var current: Slot? { position < filled ? buffer[position] : nil }

        mutating func advance() throws(StorePriceError) {
            position += 1
            if position == filled { try refill() }
        }

        private mutating func refill() throws(StorePriceError) {
            filled = min(buffer.count, remaining)
            position = 0
            guard filled > 0 else { return }
            let (offset, bytes) = (next, filled * MemoryLayout<Slot>.stride)
            let failure = buffer.withUnsafeMutableBytes { spill.readRuns(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<bytes]), at: offset) }
            if let failure { throw failure }
            next += bytes
            remaining -= filled
        }
    }

    /// A binary min-heap of (digest, source) pairs, for merging sorted runs.
    private struct MergeHeap {
        private var items: [(ProductIDDigest, Int)] = []

        mutating func push(_ digest: ProductIDDigest, _ source: Int) {
            items.append((digest, source))
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child].0 < items[parent].0 else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> (ProductIDDigest, Int)? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            guard !items.isEmpty else { return top }
            items[0] = last
            var parent = 0
            while true {
                let left = parent * 2 + 1
                guard left < items.count else { break }
                let right = left + 1
                let child = right < items.count && items[right].0 < items[left].0 ? right : left
                guard items[child].0 < items[parent].0 else { break }
                items.swapAt(child, parent)
                parent = child
            }
            return top
        }
    }
}

/// The registry's two temporary files: the runs of sorted digests, and each product's line and ID
/// from the first run on. Both are unlinked once open.
private final class SpillFiles {
    private let runsFile: Int32
    private let idsFile: Int32
    private(set) var runs: [(offset: Int, count: Int)] = []
    private var runsSize = 0
    /// IDs not yet written: `line` (8 bytes), the ID's length (4 bytes), its UTF-8.
    private var ids: [UInt8] = []
    private var idsWritten = 0
    private let window: Int
    private let directory: String

    init(window: Int) throws(StorePriceError) {
        self.window = window
        directory = Self.directory()
        runsFile = try Self.create(in: directory, window: window)
        do {
            idsFile = try Self.create(in: directory, window: window)
        } catch {
            close(runsFile)
            throw error
        }
        ids.reserveCapacity(1 << 16)
    }

    deinit {
        close(runsFile)
        close(idsFile)
    }

    /// Writes a run of `count` slots; nil, or why it failed.
    func appendRun(_ bytes: UnsafeRawBufferPointer, count: Int) -> StorePriceError? {
        if let failure = write(bytes, to: runsFile) { return failure }
        runs.append((runsSize, count))
        runsSize += bytes.count
        return nil
    }

    func logID(_ id: String, line: Int) throws(StorePriceError) {
        withUnsafeBytes(of: Int64(line).littleEndian) { ids.append(contentsOf: $0) }
        var utf8 = id
        utf8.withUTF8 { bytes in
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: bytes.count).littleEndian) { ids.append(contentsOf: $0) }
            ids.append(contentsOf: bytes)
        }
        if ids.count >= 1 << 16 { try flushIDs() }
    }

    /// Fills `bytes` from the runs' file at `offset`; nil, or why it failed.
    func readRuns(into bytes: UnsafeMutableRawBufferPointer, at offset: Int) -> StorePriceError? {
        read(into: bytes, at: offset, from: runsFile)
    }

    /// The ID logged for `line`, found by reading the file from its start. Every product
    /// repeated across runs has its second line logged: its first went to disk before it came.
    ///
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)`` when the file cannot be read,
    ///   or lacks the line.
    func id(onLine line: Int) throws(StorePriceError) -> String {
        try flushIDs()
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while offset + 12 <= idsWritten {
            let size = min(block.count, idsWritten - offset)
            let failure = block.withUnsafeMutableBytes { bytes in
                read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<size]), at: offset, from: idsFile)
            }
            if let failure { throw failure }
            var position = 0
            var entry = (line: 0, length: 0)
            while position + 12 <= size {
                entry = block.withUnsafeBytes {
                    (Int(Int64(littleEndian: $0.loadUnaligned(fromByteOffset: position, as: Int64.self))),
                     Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: position + 8, as: UInt32.self))))
                }
                guard position + 12 + entry.length <= size else { break }
                if entry.line == line {
                    return String(decoding: block[(position + 12)..<(position + 12 + entry.length)], as: UTF8.self)
                }
                position += 12 + entry.length
            }
            if position == 0 {
                // An entry cut by the file's end, or one longer than the block: read it whole.
                guard 12 + entry.length > block.count else { break }
                block = [UInt8](repeating: 0, count: 12 + entry.length)
            }
            offset += position
        }
        throw .unreadableFile(path: directory, reason: Self.reason(EIO, window: window))
    }

    private func flushIDs() throws(StorePriceError) {
        guard !ids.isEmpty else { return }
        if let failure = ids.withUnsafeBytes({ write($0, to: idsFile) }) { throw failure }
        idsWritten += ids.count
        ids.removeAll(keepingCapacity: true)
    }

    private func write(_ bytes: UnsafeRawBufferPointer, to file: Int32) -> StorePriceError? {
        guard let code = OutputFile.writeAll(bytes.assumingMemoryBound(to: UInt8.self), to: file) else { return nil }
        return .unwritableFile(path: directory, reason: Self.reason(code, window: window))
    }

    private func read(
        into bytes: UnsafeMutableRawBufferPointer, at offset: Int, from file: Int32
    ) -> StorePriceError? {
        var done = 0
        while done < bytes.count {
            guard let base = bytes.baseAddress else { return nil }
            let got = pread(file, base + done, bytes.count - done, off_t(offset + done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else {
                return .unreadableFile(path: directory, reason: Self.reason(got == 0 ? EIO : errno, window: window))
            }
            done += got
        }
        return nil
    }

    /// Names the files' purpose: they are unlinked, so a path would name nothing; or the path of
    /// one that could not be.
    private static func reason(_ code: Int32, window: Int, notRemoved path: String? = nil) -> String {
        "a temporary file for the IDs of more than \(PriceSnapshotDiff.grouped(window)) products "
            + (path.map { "cannot be removed from it (\($0.escapedForMessage))" } ?? "(TMPDIR chooses its directory)")
            + ": " + String(cString: strerror(code))
    }

    private static func directory() -> String {
        guard let value = getenv("TMPDIR"), value.pointee != 0 else { return "/tmp" }
        var path = String(cString: value)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// A file made as output files' temporary files are, listed for the signal handler until it
    /// is unlinked, so that a signal in between removes it too.
    private static func create(in directory: String, window: Int) throws(StorePriceError) -> Int32 {
        let (descriptor, path): (Int32, String)
        switch TemporaryFiles.create(template: directory + "/storeprice-products-XXXXXX") {
        case .success(let file): (descriptor, path) = file
        case .failure(let failure): throw .unwritableFile(path: directory, reason: reason(failure.code, window: window))
        }
        defer { TemporaryFiles.remove(path) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        guard unlink(path) == 0 else {
            // A file that cannot be removed now would outlive the run, with product IDs in it.
            let code = errno
            close(descriptor)
            throw .unwritableFile(path: directory, reason: reason(code, window: window, notRemoved: path))
        }
        return descriptor
    }
}
