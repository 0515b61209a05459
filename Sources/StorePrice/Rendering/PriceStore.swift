import Synchronization

/// A run's formatted prices, each written once into a slot that never moves, read by number:
/// the prices a ``RenderedBatch``'s rows refer to.
///
/// Slots live in fixed chunks allocated as needed; the chunk table is allocated whole up front, so
/// appending never moves what readers see.
///
/// Sendable notes: `append` takes a lock. A slot is read only by a batch that its worker made
/// after writing it, handed over through the pipeline's queue, and never changes.
final class PriceStore: @unchecked Sendable {
    struct Slot: Sendable {
        let price: Price
        let formatted: String
    }

    static let chunkSize = 4096
    static let chunkCount = 64
    /// The most slots: 262,144.
    static let capacity = chunkSize * chunkCount

    private let chunks: UnsafeMutablePointer<UnsafeMutablePointer<Slot>?>
    /// Written under `lock`, read without it, hence atomic.
    private let stored = Atomic<Int>(0)
    private let lock = Mutex<Void>(())

    var count: Int { stored.load(ordering: .acquiring) }

    init() {
        chunks = .allocate(capacity: Self.chunkCount)
        chunks.initialize(repeating: nil, count: Self.chunkCount)
    }

    deinit {
        for chunk in 0..<Self.chunkCount {
            guard let slots = chunks[chunk] else { continue }
            let used = min(Self.chunkSize, max(0, count - chunk * Self.chunkSize))
            slots.deinitialize(count: used)
            slots.deallocate()
        }
        chunks.deallocate()
    }

    /// Stores a price and returns its slot; nil when the store is full.
    func append(_ slot: Slot) -> Int32? {
        lock.withLock { _ -> Int32? in
            let index = count
            guard index < Self.capacity else { return nil }
            let chunk = index / Self.chunkSize
            if chunks[chunk] == nil { chunks[chunk] = .allocate(capacity: Self.chunkSize) }
            (chunks[chunk].unsafelyUnwrapped + index % Self.chunkSize).initialize(to: slot)
            stored.store(index + 1, ordering: .releasing)
            return Int32(index)
        }
    }

    subscript(index: Int) -> Slot {
        chunks[index / Self.chunkSize].unsafelyUnwrapped[index % Self.chunkSize]
    }
}
