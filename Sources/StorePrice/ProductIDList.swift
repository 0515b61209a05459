#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The product IDs an app asks the store for, as apps keep them: a property list array
/// (`<plist><array><string>…</string></array></plist>`, XML or binary) or a JSON array of strings.
///
/// ```swift
/// let ids = try ProductIDList(contentsOfFile: "Products.plist")
/// ids.ids  // ["com.example.level1", "com.example.level2"]
/// ```
public struct ProductIDList: Hashable, Sendable {
    /// Where the list came from.
    public let source: String
    /// The IDs in list order, each once.
    public let ids: [String]

    /// Reads a list from a `.plist` or `.json` file; the format is told by the content.
    public init(contentsOfFile path: String) throws(StorePriceError) {
        try self.init(data: InputFile(path: path).readAll(), source: path)
    }

    /// Reads a list from property-list or JSON bytes.
    public init(data bytes: [UInt8], source: String) throws(StorePriceError) {
        let firstByte = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let decoded: [String]
        do {
            if firstByte == UInt8(ascii: "[") {
                decoded = try JSONDecoder().decode([String].self, from: Data(bytes))
            } else {
                decoded = try PropertyListDecoder().decode([String].self, from: Data(bytes))
            }
        } catch {
            throw .invalidProductList(
                source: source,
                reason: "expected a property list or JSON array of product ID strings (\(describe(error)))")
        }
        var seen: Set<String> = []
        var ids: [String] = []
        for id in decoded where seen.insert(id).inserted {
            guard !id.isEmpty else { throw .invalidProductList(source: source, reason: "an empty product ID") }
            ids.append(id)
        }
        self.source = source
        self.ids = ids
    }

    /// A list from IDs in memory.
    public init(_ ids: [String], source: String = "list") {
        var seen: Set<String> = []
        self.ids = ids.filter { seen.insert($0).inserted }
        self.source = source
    }
}
