/// The differences between a golden ``PriceSnapshot`` and one made now.
///
/// Its description is the report `storeprice verify` prints: changed strings grouped by price
/// locale, each with the changed characters escaped, then rows added and removed, then a summary.
///
/// ```text
/// ja_JP@currency=JPY  com.example.level1  ￥160 → ¥160  (\u{FFE5} → \u{00A5})  for jpn
/// ja_JP@currency=JPY  com.example.pro.monthly  price_per_period: ￥600/月 → ￥600 / 月  ("" → " ")  for jpn
///
/// 1 of 5,581 strings changed in 1 price locale; snapshot made with ICU 72.1/CLDR 42.0, now ICU 74.2/CLDR 44.1
/// ```
public struct PriceSnapshotDiff: Sendable, CustomStringConvertible {
    /// A row whose product and account are in both snapshots, with something different.
    public struct Change: Hashable, Sendable {
        /// The row in the golden snapshot.
        public let before: PriceSnapshot.Row
        /// The row made now.
        public let after: PriceSnapshot.Row
    }

    /// The golden snapshot.
    public let golden: PriceSnapshot
    /// The snapshot made now.
    public let current: PriceSnapshot
    /// Rows in both whose storefront, price locale, amount or string differs, in row order.
    public let changed: [Change]
    /// Rows made now that the golden snapshot lacks: a new product, account or storefront.
    public let added: [PriceSnapshot.Row]
    /// Golden rows that were not made now: a product removed, or no longer priced in a storefront.
    public let removed: [PriceSnapshot.Row]
    /// The number of strings compared: each row in both snapshots has its price and the strings
    /// in ``PriceSnapshot/Row/strings``.
    public let compared: Int
    /// The number of those strings that differ.
    public let changedStrings: Int

    /// Compares two snapshots row by row.
    public init(golden: PriceSnapshot, current: PriceSnapshot) {
        self.golden = golden
        self.current = current
        var changed: [Change] = []
        var added: [PriceSnapshot.Row] = []
        var removed: [PriceSnapshot.Row] = []
        var compared = 0
        var changedStrings = 0
        var old = golden.rows[...]
        var new = current.rows[...]
        while let before = old.first, let after = new.first {
            if before.hasSameKey(as: after) {
                let fields = Self.fieldChanges(before, after)
                compared += 1 + Set(before.strings.map { Array($0.name.utf8) }).union(after.strings.map { Array($0.name.utf8) }).count
                // Strings are compared by field, so the same strings in another order are no change.
                if Self.priceChanged(before, after) || !fields.isEmpty {
                    changed.append(Change(before: before, after: after))
                    changedStrings += (Self.priceChanged(before, after) ? 1 : 0) + fields.count
                }
                old.removeFirst()
                new.removeFirst()
            } else if before.sortsBefore(after) {
                removed.append(before)
                old.removeFirst()
            } else {
                added.append(after)
                new.removeFirst()
            }
        }
        removed += old
        added += new
        self.changed = changed
        self.added = added
        self.removed = removed
        self.compared = compared
        self.changedStrings = changedStrings
    }

    /// Whether a row's price line changed: its string, price locale, storefront or amount,
    /// compared as UTF-8 bytes.
    static func priceChanged(_ before: PriceSnapshot.Row, _ after: PriceSnapshot.Row) -> Bool {
        !before.formatted.utf8.elementsEqual(after.formatted.utf8) || !before.priceLocale.utf8.elementsEqual(after.priceLocale.utf8)
            || !before.storefront.utf8.elementsEqual(after.storefront.utf8) || !before.amount.utf8.elementsEqual(after.amount.utf8)
    }

    /// The row's other strings that differ, by field, in the order rendered now then before:
    /// (field, text before or nil when new, text now or nil when gone).
    static func fieldChanges(_ before: PriceSnapshot.Row, _ after: PriceSnapshot.Row) -> [(String, String?, String?)] {
        guard before.strings != after.strings else { return [] }
        // Keyed and compared by UTF-8 bytes, not by String's canonical equivalence.
        let old = Dictionary(before.strings.map { (Array($0.name.utf8), $0.text) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.strings.map { (Array($0.name.utf8), $0.text) }, uniquingKeysWith: { first, _ in first })
        var changes: [(String, String?, String?)] = []
        for field in after.strings {
            let previous = old[Array(field.name.utf8)]
            if let previous, previous.utf8.elementsEqual(field.text.utf8) { continue }
            changes.append((field.name, previous, field.text))
        }
        for field in before.strings where new[Array(field.name.utf8)] == nil {
            changes.append((field.name, field.text, nil))
        }
        return changes
    }

    /// Whether the snapshots have the same rows with the same strings.
    public var isEmpty: Bool { changed.isEmpty && added.isEmpty && removed.isEmpty }

    /// The price locales with changed rows, sorted.
    public var changedPriceLocales: [String] {
        Set(changed.map(\.after.priceLocale)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// One line: how many strings changed, where, and which ICU and CLDR made each snapshot.
    ///
    /// `37 of 5,250 strings changed in 4 price locales; snapshot made with ICU 72.1/CLDR 42.0, now
    /// ICU 74.2/CLDR 44.1`.
    public var summary: String {
        var parts: [String] = []
        if changed.isEmpty && compared > 0 {
            parts.append(compared == 1 ? "the 1 string matches" : "all \(Self.grouped(compared)) strings match")
        } else {
            let locales = changedPriceLocales.count
            var text = "\(Self.grouped(changedStrings)) of \(Self.grouped(compared)) string\(compared == 1 ? "" : "s") changed"
            if locales > 0 { text += " in \(Self.grouped(locales)) price locale\(locales == 1 ? "" : "s")" }
            parts.append(text)
        }
        if !added.isEmpty || !removed.isEmpty {
            let rows = added.count == 1 ? "row" : "rows"
            parts.append("\(Self.grouped(added.count)) \(rows) added, \(Self.grouped(removed.count)) removed")
        }
        let then = golden.producer
        let now = current.producer
        if then.icu == now.icu && then.cldr == now.cldr && then.appStoreRules == now.appStoreRules {
            parts.append("snapshot made with \(then), as now")
        } else {
            parts.append("snapshot made with \(then), now \(now)")
        }
        if golden.fileFormatVersion < 2 {
            parts.append(
                "the snapshot is format \(golden.fileFormatVersion), which records prices only: record it again "
                    + "to compare titles, periods and offers")
        }
        if golden.source.options != current.source.options {
            parts.append(
                "snapshot options \(Self.describe(golden.source.options)), now \(Self.describe(current.source.options))")
        }
        return parts.joined(separator: "; ")
    }

    /// The full report: changes grouped by price locale, added rows, removed rows, and the summary.
    public var description: String {
        var lines: [String] = []
        for group in groupedChanges() {
            if !lines.isEmpty { lines.append("") }
            lines += group
        }
        if !added.isEmpty {
            if !lines.isEmpty { lines.append("") }
            lines.append("Rows added (\(Self.grouped(added.count))):")
            lines += added.map { "+ " + Self.describe($0) }
        }
        if !removed.isEmpty {
            if !lines.isEmpty { lines.append("") }
            lines.append("Rows removed (\(Self.grouped(removed.count))):")
            lines += removed.map { "- " + Self.describe($0) }
        }
        if !lines.isEmpty { lines.append("") }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// Changed rows as report lines, one group per price locale; rows that changed the same way
    /// for several accounts share a line.
    private func groupedChanges() -> [[String]] {
        struct Key: Hashable {
            var locale: String
            var product: String
            var before: PriceSnapshot.Row
            var after: PriceSnapshot.Row
        }
        var order: [Key] = []
        var accounts: [Key: [String]] = [:]
        for change in changed {
            var before = change.before
            var after = change.after
            before.account = ""
            after.account = ""
            let key = Key(locale: change.after.priceLocale, product: change.after.product, before: before, after: after)
            if accounts[key] == nil { order.append(key) }
            accounts[key, default: []].append(change.after.account)
        }
        let byLocale = Dictionary(grouping: order, by: \.locale)
        return byLocale.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { locale in
            (byLocale[locale] ?? []).flatMap { key in
                Self.changeLines(before: key.before, after: key.after, accounts: accounts[key] ?? [])
            }
        }
    }

    /// A line for a changed price, and one for each other string that changed, naming its field:
    /// `ja_JP@currency=JPY  com.example.pro.monthly  price_per_period: ￥600/月 → ￥600 / 月  ("" → " ")  for jpn`.
    private static func changeLines(before: PriceSnapshot.Row, after: PriceSnapshot.Row, accounts: [String]) -> [String] {
        var lines: [String] = []
        if priceChanged(before, after) { lines.append(changeLine(before: before, after: after, accounts: accounts)) }
        for (field, old, new) in fieldChanges(before, after) {
            var line = "\(shown(after.priceLocale))  \(shownID(after.product))  \(shown(field)): "
                + "\(old.map(shown) ?? "(none)") → \(new.map(shown) ?? "(none)")"
            if let old, let new {
                let (oldPart, newPart) = differingParts(old, new)
                line += "  (\(oldPart) → \(newPart))"
            } else if let text = old ?? new, text != UnicodeEscaping.escapeNonASCII(text) {
                line += "  (\(UnicodeEscaping.escapeNonASCII(text)))"
            }
            lines.append(line + "  for " + accounts.map(shownID).joined(separator: ", "))
        }
        return lines
    }

    /// Snapshot text as a report line shows it: a hostile snapshot cannot move the cursor, forge
    /// a line or reverse the text around it.
    private static func shown(_ text: String) -> String { UnicodeEscaping.escapeForTerminal(text) }

    /// A product ID or account name as a report line shows it: also its combining marks and
    /// backslashes escaped, so that two IDs that differ look different.
    private static func shownID(_ text: String) -> String { text.escapedIDForReport }

    private static func changeLine(before: PriceSnapshot.Row, after: PriceSnapshot.Row, accounts: [String]) -> String {
        var line = "\(shown(after.priceLocale))  \(shownID(after.product))  \(shown(before.formatted)) → \(shown(after.formatted))"
        var notes: [String] = []
        func differ(_ a: String, _ b: String) -> Bool { !a.utf8.elementsEqual(b.utf8) }
        if differ(before.formatted, after.formatted) {
            let (old, new) = differingParts(before.formatted, after.formatted)
            notes.append("\(old) → \(new)")
        }
        if differ(before.priceLocale, after.priceLocale) { notes.append("was \(shown(before.priceLocale))") }
        if differ(before.storefront, after.storefront) { notes.append("storefront \(shown(before.storefront)) → \(shown(after.storefront))") }
        if differ(before.amount, after.amount) { notes.append("amount \(shown(before.amount)) → \(shown(after.amount))") }
        if !notes.isEmpty { line += "  (" + notes.joined(separator: "; ") + ")" }
        line += "  for " + accounts.map(shownID).joined(separator: ", ")
        return line
    }

    /// The parts of two strings between their common prefix and suffix, escaped; an empty part,
    /// or one with a space at either end, is quoted.
    static func differingParts(_ old: String, _ new: String) -> (String, String) {
        let a = Array(old.unicodeScalars)
        let b = Array(new.unicodeScalars)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        // A difference inside a number shows the whole number: 0,99 → 1,09 and 9.99 → 19.99, not
        // 0,9 → 1,0 and "" → 1. A changed separator alone stays alone: \u{00A0} → \u{202F}.
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.numericType == .decimal }
        func isNumberPart(_ index: Int, step: Int) -> Bool {
            if isDigit(a[index]) { return true }
            let next = index + step
            return numberSeparators.contains(a[index]) && next >= 0 && next < a.count && isDigit(a[next])
        }
        let oldPart = prefix..<(a.count - suffix)
        let newPart = prefix..<(b.count - suffix)
        if !oldPart.isEmpty && isDigit(a[oldPart.lowerBound]) || !newPart.isEmpty && isDigit(b[newPart.lowerBound]) {
            while prefix > 0, isNumberPart(prefix - 1, step: -1) { prefix -= 1 }
        }
        if !oldPart.isEmpty && isDigit(a[oldPart.upperBound - 1]) || !newPart.isEmpty && isDigit(b[newPart.upperBound - 1]) {
            while suffix > 0, isNumberPart(a.count - suffix, step: 1) { suffix -= 1 }
        }
        func shown(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            let escaped = UnicodeEscaping.escapeNonASCII(text)
            return escaped.isEmpty || escaped.hasPrefix(" ") || escaped.hasSuffix(" ") ? "\"\(escaped)\"" : escaped
        }
        return (shown(a[prefix..<(a.count - suffix)]), shown(b[prefix..<(b.count - suffix)]))
    }

    /// Characters that separate digits inside a formatted number.
    private static let numberSeparators: Set<Unicode.Scalar> = [
        ".", ",", "'", "\u{2019}", "\u{066B}", "\u{066C}", " ", "\u{00A0}", "\u{202F}",
    ]

    static func describe(_ row: PriceSnapshot.Row) -> String {
        "\(shown(row.priceLocale))  \(shownID(row.product))  \(shown(row.formatted))  (\(row.escaped))  for \(shownID(row.account))"
    }

    private static func describe(_ options: PriceFormatter.Options) -> String {
        "display \(options.display.rawValue), rounding \(options.rounding.rawValue)"
            + (options.style == .icu ? "" : ", style \(options.style.rawValue)")
    }

    /// `5250` as `5,250`: reports are in English, so the grouping is fixed.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return number < 0 ? "-" + out : out
    }
}
