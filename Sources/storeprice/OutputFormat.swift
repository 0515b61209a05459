import ArgumentParser

/// How listing subcommands write their rows.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

/// Plain-text tables and CSV for listings.
enum Listing {
    /// Columns padded to their widest cell, two spaces apart, with a header row.
    static func table(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                text += isLast ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            // Empty trailing cells leave no trailing spaces.
            while text.last == " " { text.removeLast() }
            return text
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n")
    }

    /// RFC 4180 CSV, a header and rows.
    static func csv(header: [String], rows: [[String]]) -> String {
        ([header] + rows).map { $0.map(csvCell).joined(separator: ",") }.joined(separator: "\n")
    }

    /// A CSV cell, quoted when it holds a comma, quote or line break.
    static func csvCell(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
