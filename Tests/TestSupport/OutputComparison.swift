public import Foundation

/// FNV-1a, 64 bits: a stable checksum of output bytes, for pinning large outputs in a test.
public func checksum(_ data: Data) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in data {
        hash ^= UInt64(byte)
        hash &*= 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16)
}

/// The first line where two outputs differ, both sides escaped, or nil when they are the same
/// bytes: what a failing comparison of large outputs prints instead of the whole outputs.
public func firstDifference(_ actual: Data, _ expected: Data) -> String? {
    guard actual != expected else { return nil }
    let got = String(decoding: actual, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    let want = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(got.count, want.count) {
        let left = index < got.count ? String(got[index]) : nil
        let right = index < want.count ? String(want[index]) : nil
        if left != right {
            return "line \(index + 1): got \(left.map(escaped) ?? "(no line)"), expected \(right.map(escaped) ?? "(no line)")"
        }
    }
    return "the same lines, different bytes"
}
