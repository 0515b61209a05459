/// Plain-text tables for people on a terminal: columns padded to their widest cell, two spaces
/// apart, with a header row. The CLI's `--format table` for rows and listings.
package enum TextTable {
    /// Columns padded to their widest cell, two spaces apart, with a header row.
    package static func text(header: [String], rows: [[String]]) -> String {
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
    package static func displayWidth(_ text: String) -> Int {
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
}
