import TestSupport
import Testing

@testable import StorePrice

/// A (target, price) part written from ICU's UTF-8 bytes is the part written from a string, in
/// every format: what the bulk pipeline copies into every row.
@Suite struct RowLayoutTests {
    /// Formatted texts that need quoting in CSV or escaping in JSON, and some that need neither.
    static let texts = [
        "$1.99", "US$1,100.00", "1.100,00\u{A0}€", "\u{200F}52.99\u{A0}د.إ.\u{200F}", "a\"b", "\"", "a,b\"c,\"",
        "line\nbreak", "cr\rreturn", "tab\there", "back\\slash", "", ",",
    ]

    @Test(arguments: BulkRenderer.Format.allCases)
    func bytesGiveThePartsOfStrings(_ format: BulkRenderer.Format) {
        for escape in [false, true] {
            let layout = RowLayout(format: format, targets: [], escapeNonASCII: escape, rawCSV: false)
            for text in Self.texts {
                var buffer = ByteBuffer(capacity: 16)
                var utf8 = Array(text.utf8)
                utf8.withUnsafeMutableBufferPointer { bytes in
                    layout.appendPricePart(amount: "1100", formatted: UnsafeBufferPointer(bytes), into: &buffer)
                }
                let expected = layout.pricePart(amount: "1100", formatted: text)
                expectBytes(String(decoding: Array(buffer.bytes), as: UTF8.self), String(decoding: expected, as: UTF8.self))
            }
        }
    }

    /// In CSV a price with a comma is quoted, each quote doubled.
    @Test func csvQuotesAPriceWithACommaOrAQuote() {
        let layout = RowLayout(format: .csv, targets: [], escapeNonASCII: false, rawCSV: false)
        var buffer = ByteBuffer(capacity: 16)
        for text in ["US$1,100.00", "a\"b"] {
            var utf8 = Array(text.utf8)
            utf8.withUnsafeMutableBufferPointer { bytes in
                layout.appendPricePart(amount: "1100", formatted: UnsafeBufferPointer(bytes), into: &buffer)
            }
        }
        expectBytes(String(decoding: Array(buffer.bytes), as: UTF8.self), "1100,\"US$1,100.00\"1100,\"a\"\"b\"")
    }
}
