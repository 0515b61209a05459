#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The brackets and commas of a JSON array of rows: `[`, the objects one per line with a comma
/// after each but the last, `]` (`[]` for none). One definition for the rows a bulk run writes as
/// ``BulkRenderer/Format/json`` and the CLI's listings.
package struct JSONArrayFraming {
    private var objects = 0
    private var framed: [UInt8] = []

    /// What goes before the next object: `[` and a line break before the first, a comma and a
    /// line break before the others.
    package init() {}

    package mutating func beforeObject() -> String {
        defer { objects += 1 }
        return objects == 0 ? "[\n" : ",\n"
    }

    /// What closes the array, line break included.
    package var end: String { objects == 0 ? "[]\n" : "\n]\n" }

    /// JSON Lines as part of the array, valid until the next call. Every line break in JSON
    /// Lines ends an object: the encoder escapes those in strings.
    package mutating func frame(_ lines: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        framed.removeAll(keepingCapacity: true)
        guard let base = lines.baseAddress else { return framed }
        var start = 0
        while start < lines.count {
            let end = memchr(base + start, Int32(UInt8(ascii: "\n")), lines.count - start)
                .map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? lines.count
            framed.append(contentsOf: beforeObject().utf8)
            framed.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
            start = end + 1
        }
        return framed
    }
}
