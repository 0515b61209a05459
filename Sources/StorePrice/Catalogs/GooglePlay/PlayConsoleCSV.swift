/// The Play Console's CSV of in-app products, as its import and export write it:
///
/// ```
/// Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,Price,Pricing Template ID
/// coins_100,published,managed_by_android,false,en_US; 100 coins; A bag of coins,false,US; 990000; JP; 160000000,
/// ```
///
/// `Locale; Title; Description` repeats `locale; title; description` for each language, and
/// `Price` is `REGION; micros` pairs. A `;` inside a title or description is written `\;`, and a
/// backslash `\\` (Android's "Administering In-app Billing"); a field with a `,` is quoted, as
/// CSV quotes (`"…"`, a quote inside as `""`), and older exports quote every field. Columns after
/// `Price` (`Pricing Template ID`, and the tax columns of newer exports) are not read.
enum PlayConsoleCSV {
    struct Row {
        var productID: String
        var titles: [String: String] = [:]
        var descriptions: [String: String] = [:]
        /// The languages in the order the row gives them.
        var titleOrder: [String] = []
        /// `(region, micros)` in the order written.
        var prices: [(String, String)] = []
        /// `Auto Fill Prices` is true: the row gives one default price, not one per region.
        var autoFill = false
    }

    /// A Windows line break, one `Character` in Swift.
    static let crlf: Character = "\r\n"

    static let header = ["Product ID", "Published State", "Purchase Type", "Auto Translate", "Locale; Title; Description", "Auto Fill Prices", "Price"]

    /// The published rows of a file, each with its line, and how many were unpublished.
    static func rows(_ bytes: [UInt8], source: String) throws(StorePriceError) -> (rows: [(Row, Int)], unpublished: Int) {
        func fail(_ line: Int?, _ field: String?, _ reason: String) -> StorePriceError {
            .invalidCatalog(source: source, line: line, field: field, reason: reason)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw fail(nil, nil, "not UTF-8 text; the Play Console writes its CSV in UTF-8")
        }
        // "\r\n" is one Character in Swift: a file saved on Windows is split at it too.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == Self.crlf })
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw fail(nil, nil, "empty; the first line is the Play Console's header") }
        let headerFields = try fields(String(first.hasPrefix("\u{FEFF}") ? first.dropFirst() : first), line: 1, source: source).map {
            $0.trimmingASCIIWhitespace()
        }
        guard headerFields.count >= header.count, Array(headerFields.prefix(header.count)) == header else {
            throw fail(1, nil, "not a Play Console CSV of in-app products: the header starts \(header.joined(separator: ","))")
        }
        var rows: [(Row, Int)] = []
        var unpublished = 0
        for (index, line) in lines.enumerated().dropFirst() where !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            let number = index + 1
            let fields = try fields(String(line), line: number, source: source)
            guard fields.count >= min(header.count, headerFields.count) else {
                throw fail(number, nil, "\(fields.count) fields; a row has the header's \(headerFields.count)")
            }
            var row = Row(productID: unescape(fields[0]).trimmingASCIIWhitespace())
            guard fields[1] == "published" || fields[1] == "unpublished" else {
                throw fail(number, "Published State", "'\(fields[1].escapedForMessage)' is published or unpublished")
            }
            let texts = split(fields[4], by: ";").map { unescape($0).trimmingASCIIWhitespace() }
            guard texts.count % 3 == 0 else {
                throw fail(number, "Locale; Title; Description", "\(texts.count) parts; each language is 'locale; title; description'")
            }
            var tags = LanguageTagSet()
            for start in stride(from: 0, to: texts.count, by: 3) {
                let language = PlayCatalogReader.languageTag(texts[start])
                if let reason = tags.insert(language) { throw fail(number, "Locale; Title; Description", reason) }
                row.titles[language] = texts[start + 1]
                row.descriptions[language] = texts[start + 2]
                row.titleOrder.append(language)
            }
            switch fields[5] {
            case "true": row.autoFill = true
            case "false": break
            default: throw fail(number, "Auto Fill Prices", "'\(fields[5].escapedForMessage)' is true or false")
            }
            let parts = split(fields[6], by: ";").map { $0.trimmingASCIIWhitespace() }
            if !row.autoFill {
                    guard parts.count % 2 == 0 else {
                    throw fail(
                        number, "Price", "\(parts.count) part\(parts.count == 1 ? "" : "s") (\(fields[6].isEmpty ? "empty" : "an odd number")); "
                            + "prices are 'REGION; micros' pairs, such as US; 990000")
                }
                for start in stride(from: 0, to: parts.count, by: 2) { row.prices.append((parts[start], parts[start + 1])) }
                // Newer exports give the default price first, under the home country, then every
                // region's own price, the home country's among them: the first pair is then the
                // default, not a second price.
                if let first = row.prices.first, row.prices.dropFirst().contains(where: { $0.0 == first.0 }) {
                    row.prices.removeFirst()
                }
            }
            guard fields[1] == "published" else {
                unpublished += 1
                continue
            }
            rows.append((row, number))
        }
        return (rows, unpublished)
    }

    /// A line's fields, split at commas outside quotes; a quoted field's quotes are taken away
    /// (`""` is one `"`), and backslash escapes kept for the `;` split.
    static func fields(_ line: String, line number: Int, source: String) throws(StorePriceError) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var atStart = true
        var characters = line.makeIterator()
        var pending: Character? = nil
        while let character = pending ?? characters.next() {
            pending = nil
            if quoted {
                if character == "\"" {
                    let next = characters.next()
                    if next == "\"" {
                        current.append("\"")
                    } else {
                        quoted = false
                        pending = next
                        guard next == nil || next == "," else {
                            throw .invalidCatalog(
                                source: source, line: number, field: "field \(fields.count + 1)",
                                reason: "text after a closing quote; a quote inside a quoted field is written \"\"")
                        }
                    }
                } else {
                    current.append(character)
                }
            } else if character == "\"", atStart {
                quoted = true
                atStart = false
            } else if character == "," {
                fields.append(current)
                current = ""
                atStart = true
            } else {
                current.append(character)
                atStart = false
            }
        }
        guard !quoted else {
            throw .invalidCatalog(
                source: source, line: number, field: "field \(fields.count + 1)", reason: "a quoted field is not closed on its line")
        }
        fields.append(current)
        return fields
    }

    /// `text` split at each `separator` not escaped by a backslash; escapes are kept.
    static func split(_ text: String, by separator: Character) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                current.append(character)
                escaped = true
            } else if character == separator {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    /// `\,`, `\;` and `\\` as the characters they stand for.
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaped = false
        for character in text {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
