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
    /// Records in `format`: `columns` name each row's values, in order. Every line ends with a
    /// newline; JSON Lines with no records is no text at all.
    static func records(_ columns: [String], rows: [[ListedValue]], format: OutputFormat, rawCSV: Bool = false) -> String {
        switch format {
        case .table:
            return TextTable.text(
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
