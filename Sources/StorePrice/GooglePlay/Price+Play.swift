extension Price {
    /// Creates a price from the Play Developer API's `Money`: whole `units` (an int64, which the
    /// API writes as a string) and `nanos` (billionths, from -999,999,999 to 999,999,999, with
    /// the sign of `units`), exactly, never through a `Double`.
    ///
    /// ```swift
    /// try Price(units: "1", nanos: 990_000_000, currency: CurrencyCode("USD"))        // 1.99 USD
    /// try Price(units: "39195", nanos: 110_000_000, currency: CurrencyCode("COP"))    // 39195.11 COP
    /// ```
    ///
    /// - Throws: ``StorePriceError/invalidAmount(_:reason:)`` naming `units` and `nanos` when
    ///   `units` is not a whole number of at most 19 digits, `nanos` is out of range, or their
    ///   signs differ.
    public init(units: String, nanos: Int, currency: CurrencyCode) throws(StorePriceError) {
        let shown = "units \(units), nanos \(nanos)"
        let digits = units.utf8.first == UInt8(ascii: "-") ? units.utf8.dropFirst() : units.utf8[...]
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy(\.isASCIIDigit), Int64(units) != nil else {
            throw .invalidAmount(shown, reason: "units is a whole number (an int64, such as \"1\" or \"-2\")")
        }
        guard (-999_999_999...999_999_999).contains(nanos) else {
            throw .invalidAmount(shown, reason: "nanos is from -999999999 to 999999999")
        }
        let negativeUnits = units.utf8.first == UInt8(ascii: "-") && digits.contains { $0 != UInt8(ascii: "0") }
        let positiveUnits = !negativeUnits && digits.contains { $0 != UInt8(ascii: "0") }
        guard !(negativeUnits && nanos > 0), !(positiveUnits && nanos < 0) else {
            throw .invalidAmount(shown, reason: "nanos has the sign of units (-1.5 is units \"-1\", nanos -500000000)")
        }
        let fraction = String(nanos.magnitude)
        let padded = String(repeating: "0", count: 9 - fraction.utf8.count) + fraction
        let negative = negativeUnits || nanos < 0
        try self.init((negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "." + padded, currency: currency)
    }

    /// Creates a price from Google Play micros written as text, as the Play Developer API writes
    /// `priceMicros` and Play Billing's `price_amount_micros` reads: an int64 of millionths.
    ///
    /// ```swift
    /// try Price(micros: "5517539436", currency: CurrencyCode("INR"))  // 5517.539436 INR
    /// ```
    ///
    /// - Throws: ``StorePriceError/invalidAmount(_:reason:)`` when the text is not a whole number
    ///   of at most 19 digits.
    public init(micros: String, currency: CurrencyCode) throws(StorePriceError) {
        let digits = micros.utf8.first == UInt8(ascii: "-") ? micros.utf8.dropFirst() : micros.utf8[...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int64(micros) else {
            throw .invalidAmount(micros, reason: "micros are a whole number of millionths (an int64, such as 990000 for 0.99)")
        }
        self.init(micros: value, currency: currency)
    }
}
