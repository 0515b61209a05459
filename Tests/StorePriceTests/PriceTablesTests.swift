import Testing

@testable import StorePrice

/// The bulk pipeline's shared amount table spreads amounts over its slots whatever bytes they
/// differ in: a table that put them in few slots would probe thousands of entries per row.
@Suite struct PriceTablesTests {
    /// 10,000 amounts of 16 bytes that differ only in bytes 6–7 and 14–15, and 10,000 that differ
    /// only in their first bytes, each fill most of the slots a 32,768-slot table gives them.
    @Test(arguments: [true, false])
    func amountsDifferingInAnyBytesSpreadOverTheSlots(_ inTheMiddle: Bool) {
        var slots = Set<Int>()
        for index in 0..<10_000 {
            let high = String(index / 100 + 100).dropFirst(), low = String(index % 100 + 100).dropFirst()
            let amount = inTheMiddle ? "100000\(high)000000\(low)" : "\(high)000000\(low)100000"
            let bytes = Array(amount.utf8)
            let (a, b) = bytes.withUnsafeBufferPointer { PriceTables.words($0) }
            slots.insert(PriceTables.hash(a, b, PriceTables.tag(currency: 3, length: bytes.count)) & (1 << 15 - 1))
        }
        // 10,000 keys thrown at random into 32,768 slots land in about 8,600 distinct ones; these
        // land in 7,683 and 8,623. A hash that mixed the high bits into the mask's bits through a
        // shifted constant put the first 10,000 in one slot.
        #expect(slots.count > 7_000, "\(slots.count) distinct slots")
    }
}
