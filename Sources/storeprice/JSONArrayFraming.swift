/// The brackets and commas of `--format json`: `[`, the objects one per line with a comma after
/// each but the last, `]` (`[]` for none). One definition for the rows the bulk pipeline streams
/// as JSON Lines, the rows written one by one, and listings.
struct JSONArrayFraming {
    private var objects = 0
    private var framed: [UInt8] = []

    /// What goes before the next object: `[` and a line break before the first, a comma and a
    /// line break before the others.
    mutating func beforeObject() -> String {
        defer { objects += 1 }
        return objects == 0 ? "[\n" : ",\n"
    }

    /// What closes the array, line break included.
    var end: String { objects == 0 ? "[]\n" : "\n]\n" }

    /// JSON Lines as part of the array, valid until the next call. Every line break in JSON
    /// Lines ends an object: the encoder escapes those in strings.
    mutating func frame(_ lines: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        framed.removeAll(keepingCapacity: true)
        var start = 0
        while start < lines.count {
            let end = lines[start...].firstIndex(of: UInt8(ascii: "\n")) ?? lines.count
            framed.append(contentsOf: beforeObject().utf8)
            framed.append(contentsOf: UnsafeBufferPointer(rebasing: lines[start..<end]))
            start = end + 1
        }
        return framed
    }
}
