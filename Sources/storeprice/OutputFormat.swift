import ArgumentParser
import StorePrice

/// How `render`, `storefronts` and `accounts` write their records; the same names and meanings
/// everywhere. Keys and CSV columns are the same snake_case names in every format.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// Columns aligned for a terminal, with a header row.
    case table
    /// A JSON array, one object per line.
    case json
    /// JSON Lines: one object per line, nothing around them.
    case jsonl
    /// RFC 4180 CSV with a header line.
    case csv

    static let help = ArgumentHelp(
        "The output format: table, json (an array), jsonl (JSON Lines) or csv.",
        discussion: "Every format uses the same snake_case names, as JSON keys, CSV columns and (in capitals) table headers.")
}

/// A value in a listed record, typed as JSON shows it.
enum ListedValue: Equatable {
    case text(String)
    case number(Int)
    case list([String])
    case null

    /// The value in a CSV cell or a table: a list joined by `separator`, null as empty.
    func cell(separator: String) -> String {
        switch self {
        case .text(let text): text
        case .number(let number): String(number)
        case .list(let items): items.joined(separator: separator)
        case .null: ""
        }
    }

    /// The value as JSON.
    var json: String {
        switch self {
        case .text(let text): JSONText.quote(text)
        case .number(let number): String(number)
        case .list(let items): "[" + items.map(JSONText.quote).joined(separator: ",") + "]"
        case .null: "null"
        }
    }
}

/// Plain-text tables and CSV for listings.
enum Listing {
    /// Columns padded to their widest cell, two spaces apart, with a header row.
    static func table(header: [String], rows: [[String]]) -> String {
        // A table is read on a terminal: text from a file cannot move the cursor or forge a line.
        let rows = rows.map { $0.map(UnicodeEscaping.escapeForTerminal) }
        var widths = header.map(displayWidth)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], displayWidth(cell)) }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                text += isLast ? cell : cell + String(repeating: " ", count: widths[index] - displayWidth(cell) + 2)
            }
            // Empty trailing cells leave no trailing spaces.
            while text.last == " " { text.removeLast() }
            return text
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    /// The columns a terminal gives the text: East Asian wide and fullwidth characters take two
    /// (`￥`, `円`, `한`), combining marks and format characters none (U+0301, U+200F).
    static func displayWidth(_ text: String) -> Int {
        var width = 0
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            let value = scalar.value
            let wide = (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value)
                || (0x3041...0x33FF).contains(value) || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
                || (0xA000...0xA4CF).contains(value) || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
                || (0x1F300...0x1F64F).contains(value) || (0x1F900...0x1F9FF).contains(value)
                || (0x20000...0x3FFFD).contains(value)
            width += wide ? 2 : 1
        }
        return width
    }

    /// Records in `format`: `columns` name each row's values, in order. Every line ends with a
    /// newline; JSON Lines with no records is no text at all.
    static func records(_ columns: [String], rows: [[ListedValue]], format: OutputFormat, rawCSV: Bool = false) -> String {
        switch format {
        case .table:
            return table(
                header: columns.map { $0.uppercased().replacingOccurrences(of: "_", with: " ") },
                rows: rows.map { $0.map { $0.cell(separator: ";") } }) + "\n"
        case .csv:
            return csv(header: columns, rows: rows.map { $0.map { $0.cell(separator: ";") } }, raw: rawCSV) + "\n"
        case .json, .jsonl:
            let objects = rows.map { row in
                "{" + zip(columns, row).map { JSONText.quote($0.0) + ":" + $0.1.json }.joined(separator: ",") + "}"
            }
            if format == .jsonl { return objects.map { $0 + "\n" }.joined() }
            var array = JSONArrayFraming()
            return objects.map { array.beforeObject() + $0 }.joined() + array.end
        }
    }

    /// RFC 4180 CSV, a header and rows; every cell is text from a file, so formulas are
    /// neutralized unless `raw`.
    static func csv(header: [String], rows: [[String]], raw: Bool = false) -> String {
        ([header] + rows).map { $0.map { csvCell($0, raw: raw) }.joined(separator: ",") }.joined(separator: "\n")
    }

    /// A CSV cell of text read from a file: quoted when it holds a comma, quote or line break,
    /// and, unless `raw`, neutralized as a formula (see `CSVText`).
    static func csvCell(_ text: String, raw: Bool) -> String {
        CSVText.cell(text, raw: raw)
    }

    /// A cell of ICU output, such as a formatted price: never catalog text, so written as it is
    /// (a negative price starts with `-` and stays a price).
    static func csvCell(formatted text: String) -> String {
        CSVText.cell(text, raw: true)
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
