/// The output of input lines seen before, by the lines' bytes: `format --batch` input repeats a
/// few hundred (price locale, amount) pairs over and over, and a repeated line is answered
/// without a `String`, a parse or a call into ICU.
///
/// An open-addressing table over one arena of bytes. Memory stays bounded: past 65,536 lines or
/// 8 MiB of bytes, it starts over.
struct LineCache {
    private struct Entry {
        var hash: UInt64
        var keyStart: Int
        var keyCount: Int
        var valueStart: Int
        var valueCount: Int
        var failed: Bool
    }

    private var slots = [Int32](repeating: -1, count: 1 << 12)
    private var entries: [Entry] = []
    private var arena: [UInt8] = []

    static let entryLimit = 1 << 16
    static let arenaLimit = 8 << 20

    /// FNV-1a over the line's bytes.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    /// The slot of a line: where its entry is, or the empty slot it would take.
    private func slot(of bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (slot: Int, entry: Int?) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            let entry = entries[Int(slots[slot])]
            if entry.hash == hash, entry.keyCount == bytes.count,
                arena.withUnsafeBufferPointer({ arena in
                    bytes.elementsEqual(UnsafeBufferPointer(rebasing: arena[entry.keyStart..<entry.keyStart + entry.keyCount]))
                })
            {
                return (slot, Int(slots[slot]))
            }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// Calls `body` with the output kept for this line and whether it was an error; false when
    /// the line has none.
    func lookUp(_ line: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Bool) -> Void) -> Bool {
        guard let index = slot(of: line, hash: Self.hash(line)).entry else { return false }
        let entry = entries[index]
        arena.withUnsafeBufferPointer { arena in
            body(UnsafeBufferPointer(rebasing: arena[entry.valueStart..<entry.valueStart + entry.valueCount]), entry.failed)
        }
        return true
    }

    /// Keeps a line's output.
    mutating func keep(_ line: UnsafeBufferPointer<UInt8>, output: UnsafeBufferPointer<UInt8>, failed: Bool) {
        if entries.count >= Self.entryLimit || arena.count + line.count + output.count > Self.arenaLimit {
            self = LineCache()
        }
        if (entries.count + 1) * 2 > slots.count { grow() }
        let hash = Self.hash(line)
        let place = slot(of: line, hash: hash)
        guard place.entry == nil else { return }
        let entry = Entry(
            hash: hash, keyStart: arena.count, keyCount: line.count, valueStart: arena.count + line.count,
            valueCount: output.count, failed: failed)
        arena.append(contentsOf: line)
        arena.append(contentsOf: output)
        slots[place.slot] = Int32(entries.count)
        entries.append(entry)
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }
}
