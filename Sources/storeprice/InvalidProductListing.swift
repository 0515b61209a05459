import StorePrice

/// Invalid products, listed on standard error a block at a time as they come.
///
/// A catalog rendered for storefronts it does not price can have a million invalid products
/// lacking the same storefronts: the words for a reason are made once for the products that
/// share it, and lines go out in blocks of 64 KiB.
struct InvalidProductListing {
    /// Products listed so far.
    private(set) var count = 0
    private var lines = ""
    private var last: (reason: InvalidProduct.Reason, words: String)?

    mutating func add(_ invalid: InvalidProduct) {
        let words: String
        if let last, last.reason == invalid.reason {
            words = last.words
        } else {
            words = invalid.reasonDescription
            last = (invalid.reason, words)
        }
        lines += Console.errorLine("invalid product " + invalid.description(reason: words))
        count += 1
        if lines.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes the lines not yet written, past any progress line.
    mutating func flush() {
        guard !lines.isEmpty else { return }
        Progress.clear()
        Console.toStandardError(lines)
        lines = ""
    }
}
