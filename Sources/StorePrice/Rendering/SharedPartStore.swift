/// Encoded price parts shared by the workers of one bulk run, so that each (price locale,
/// amount) pair is formatted by ICU once per run, not once per worker.
///
/// Parts are appended to fixed 1 MiB chunks that never move, up to ``capacity``; a part's
/// location is handed out under the lock after its bytes are written, so a worker that learned a
/// location may read its bytes without the lock. When the store is full, workers keep new parts in
/// their own bounded arenas instead, and memory stays flat.
///
/// Sendable notes: `chunks` entries and chunk bytes are written under `state`'s lock before any
/// location that refers to them is returned; they never change afterwards.
final class SharedPartStore: @unchecked Sendable {
    static let chunkSize = 1 << 20
    static let chunkCount = 4
    /// The most bytes of parts kept: 4 MiB.
    static let capacity = chunkSize * chunkCount
    /// Marks a part location as the store's rather than a worker's arena.
    static let sharedFlag = 1 << 62

    /// A (price locale, amount) pair, the amount's text of up to 16 bytes (every real price) held
    /// as two words, which hash faster than text; nil for a longer amount, which is not shared
    /// (its worker keeps its part).
    struct Key: Hashable, Sendable {
        var pair: Int
        var first: UInt64
        var second: UInt64

        init?(pair: Int, amount: String) {
            var amount = amount
            guard amount.utf8.count <= 16 else { return nil }
            self.pair = pair
            // An amount is decimal text, never a NUL: the zero padding cannot be mistaken for it.
            (first, second) = amount.withUTF8(AmountTable.words)
        }
    }

    private struct State: Sendable {
        var index = [Key: Int](minimumCapacity: 4096)
        var chunk = -1
        var used = SharedPartStore.chunkSize
    }

    private let chunks: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    private let state = Locked(State())

    init() {
        chunks = .allocate(capacity: Self.chunkCount)
        chunks.initialize(repeating: nil, count: Self.chunkCount)
    }

    deinit {
        for index in 0..<Self.chunkCount { chunks[index]?.deallocate() }
        chunks.deallocate()
    }

    /// The location of a pair's part, if a worker has stored it.
    func location(of key: Key) -> Int? {
        state.withLock { $0.index[key] }
    }

    /// The most parts kept: their index costs more memory than their bytes.
    static let partLimit = 1 << 16

    /// Stores a pair's part and returns its location; the location of the part stored first when
    /// another worker stored the pair meanwhile; nil when the store is full.
    func store(_ key: Key, _ bytes: [UInt8]) -> Int? {
        state.withLock { state -> Int? in
            if let known = state.index[key] { return known }
            guard state.index.count < Self.partLimit else { return nil }
            guard bytes.count <= Self.chunkSize, bytes.count < 1 << 16 else { return nil }
            if state.used + bytes.count > Self.chunkSize {
                guard state.chunk + 1 < Self.chunkCount else { return nil }
                state.chunk += 1
                chunks[state.chunk] = .allocate(capacity: Self.chunkSize)
                state.used = 0
            }
            guard let chunk = chunks[state.chunk] else { return nil }
            bytes.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                (chunk + state.used).update(from: base, count: source.count)
            }
            let location = Self.sharedFlag | state.chunk << 40 | state.used << 16 | bytes.count
            state.used += bytes.count
            state.index[key] = location
            return location
        }
    }

    /// The bytes at a location this store returned.
    @inline(__always)
    func bytes(at location: Int) -> UnsafePointer<UInt8> {
        UnsafePointer(chunks[(location >> 40) & 0xFF].unsafelyUnwrapped + ((location >> 16) & 0xFF_FFFF))
    }
}
