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
        if firstByte == UInt8(ascii: "["), let problem = JSONText.problem(in: bytes) {
            throw .invalidProductList(source: source, reason: problem)
        }
        do {
            if firstByte == UInt8(ascii: "[") {
                decoded = try JSONDecoder().decode([String].self, from: Data(bytes))
            } else if bytes.starts(with: Array("bplist".utf8)) {
                // Foundation's property-list parsers recurse once per nesting level, so a hostile
                // file nested 20,000 deep overflows the stack. A product list is one flat array:
                // check that shape, from the offset table, before decoding.
                if let problem = PropertyListShape.binaryProblem(bytes) {
                    throw StorePriceError.invalidProductList(source: source, reason: problem)
                }
                decoded = try PropertyListDecoder().decode([String].self, from: Data(bytes))
            } else {
                do {
                    decoded = try XMLPropertyListReader.productIDs(bytes)
                } catch {
                    throw StorePriceError.invalidProductList(source: source, reason: error.reason)
                }
            }
        } catch let error as StorePriceError {
            throw error
        } catch {
            throw .invalidProductList(
                source: source,
                reason: "expected a property list or JSON array of product ID strings (\(describe(error)))")
        }
        var seen = ProductIDSet()
        var ids: [String] = []
        for id in decoded where seen.insert(id) {
            guard !id.isEmpty else { throw .invalidProductList(source: source, reason: "an empty product ID") }
            ids.append(id)
        }
        self.source = source
        self.ids = ids
    }

    /// A list from IDs in memory.
    public init(_ ids: [String], source: String = "list") {
        var seen = ProductIDSet()
        self.ids = ids.filter { seen.insert($0) }
        self.source = source
    }
}

/// A check, before decoding, that a binary property list is no deeper than a flat array.
enum PropertyListShape {
    static let flatArray = "expected a flat array of product ID strings; found a container inside the array"
    static let dictionary = "the top level is a dictionary (<dict>), not an array; a product list is a flat array of "
        + "product ID strings, such as <array><string>com.example.level1</string></array>"

    /// Binary: the top object is an array whose elements are strings, read from the trailer and
    /// offset table without recursion.
    static func binaryProblem(_ bytes: [UInt8]) -> String? {
        let invalid = "not a valid binary property list"
        guard bytes.count >= 40 else { return invalid }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objectCount = integer(bytes, trailer + 8, 8), let top = integer(bytes, trailer + 16, 8),
            let table = integer(bytes, trailer + 24, 8), top < objectCount, objectCount <= bytes.count,
            table + objectCount * offsetSize <= trailer
        else { return invalid }
        func offset(of object: Int) -> Int? {
            guard object < objectCount, let value = integer(bytes, table + object * offsetSize, offsetSize),
                value >= 8, value < table
            else { return nil }
            return value
        }
        guard let start = offset(of: top) else { return invalid }
        let marker = bytes[start]
        if marker >> 4 == 0xD { return dictionary }
        guard marker >> 4 == 0xA else { return "expected an array of product ID strings" }
        var count = Int(marker & 0x0F)
        var references = start + 1
        if count == 0x0F {
            guard references < trailer, bytes[references] >> 4 == 0x1 else { return invalid }
            let width = 1 << Int(bytes[references] & 0x0F)
            guard width <= 8, let value = integer(bytes, references + 1, width) else { return invalid }
            count = value
            references += 1 + width
        }
        guard count <= objectCount, references + count * referenceSize <= table else { return invalid }
        for element in 0..<count {
            guard let object = integer(bytes, references + element * referenceSize, referenceSize),
                let position = offset(of: object)
            else { return invalid }
            switch bytes[position] >> 4 {
            case 0x5, 0x6, 0x7: continue  // ASCII, UTF-16 and UTF-8 strings
            case 0xA, 0xC, 0xD: return flatArray
            default: return "expected an array of product ID strings"
            }
        }
        return nil
    }

    /// A big-endian unsigned integer of `width` bytes at `index`, when it is in bounds and fits.
    private static func integer(_ bytes: [UInt8], _ index: Int, _ width: Int) -> Int? {
        guard index >= 0, width >= 1, index + width <= bytes.count else { return nil }
        var value: UInt64 = 0
        for byte in bytes[index..<(index + width)] {
            guard value >> 56 == 0 else { return nil }
            value = value << 8 | UInt64(byte)
        }
        return value <= UInt64(Int.max / 2) ? Int(value) : nil
    }
}
