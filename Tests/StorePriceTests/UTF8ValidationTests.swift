@testable import StorePrice
import TestSupport
import Testing

/// The bulk readers' UTF-8 check against the standard library's: the same answer for every
/// sequence of up to three bytes drawn from the bytes that decide well-formedness, and for
/// random lines with ASCII runs of every length around the eight-byte steps.
@Suite struct UTF8ValidationTests {
    static let deciding: [UInt8] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
        0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF,
    ]

    func agrees(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { UTF8Validation.isValid($0) } == (String(validating: bytes, as: UTF8.self) != nil)
    }

    @Test func agreesWithTheStandardLibraryOnShortSequences() {
        var disagreements: [[UInt8]] = []
        for a in Self.deciding {
            for b in [nil] + Self.deciding.map(Optional.some) {
                for c in [nil] + Self.deciding.map(Optional.some) {
                    let bytes = [a] + [b, c].compactMap { $0 }
                    if !agrees(bytes) { disagreements.append(bytes) }
                    // The same after an ASCII run that ends mid-word, and with four bytes.
                    if !agrees(Array("abcdefghij".utf8) + bytes) { disagreements.append(Array("abcdefghij".utf8) + bytes) }
                    for d in [0x80, 0xBF, 0x41] as [UInt8] where !agrees(bytes + [d]) { disagreements.append(bytes + [d]) }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test func agreesWithTheStandardLibraryOnRandomLines() {
        var generator = SplitMix64(seed: 20_261_128)
        var disagreements: [[UInt8]] = []
        let pieces: [[UInt8]] = [
            Array("{\"product\":\"a\",\"title\":{\"ja\":\"".utf8), Array("レベル".utf8), Array("é".utf8), Array("😀".utf8),
            [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0xE2, 0x82], [0xFF], [0x80],
        ]
        for _ in 0..<5_000 {
            var line: [UInt8] = []
            for _ in 0..<Int(generator.next() % 6) {
                line += Array(repeating: UInt8(ascii: "x"), count: Int(generator.next() % 17))
                line += pieces[Int(generator.next() % UInt64(pieces.count))]
            }
            if !agrees(line) { disagreements.append(line) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
    }
}
