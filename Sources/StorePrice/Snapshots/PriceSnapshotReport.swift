extension PriceSnapshotDiff {
    /// The most cells a report shows in full; past it, only products and accounts with a
    /// difference are shown.
    public static let fullReportCellLimit = 50_000

    /// A self-contained HTML page: the summary, then a product × account matrix in which changed,
    /// added and removed cells are highlighted. Each cell is rendered in its price locale's
    /// direction, and hovering shows its escaped text. The page needs no network or script.
    ///
    /// A matrix of more than ``fullReportCellLimit`` cells keeps only the products and accounts
    /// that have a difference, and says so.
    public func htmlReport(title: String = "StorePrice snapshot differences") -> String {
        var goldenRows: [PriceSnapshot.Row.Key: PriceSnapshot.Row] = [:]
        var currentRows: [PriceSnapshot.Row.Key: PriceSnapshot.Row] = [:]
        // Products and accounts are told apart by their bytes: two spellings of one text that
        // Swift's String calls equal are two products.
        var columns: [[UInt8]: PriceSnapshot.Row] = [:]
        for row in golden.rows {
            goldenRows[PriceSnapshot.Row.Key(row)] = row
            columns[Array(row.account.utf8)] = row
        }
        for row in current.rows {
            currentRows[PriceSnapshot.Row.Key(row)] = row
            columns[Array(row.account.utf8)] = row
        }
        var products = Set(golden.rows.map { Array($0.product.utf8) }).union(current.rows.map { Array($0.product.utf8) })
        var accounts = Set(columns.keys)
        let full = products.count * accounts.count <= Self.fullReportCellLimit
        if !full {
            let differing = changed.map(\.after) + added + removed
            products = Set(differing.map { Array($0.product.utf8) })
            accounts = Set(differing.map { Array($0.account.utf8) })
        }
        let productOrder = products.sorted { $0.lexicographicallyPrecedes($1) }
        let accountOrder = accounts.sorted { a, b in
            let left = Array((columns[a]?.storefront ?? "").utf8)
            let right = Array((columns[b]?.storefront ?? "").utf8)
            return left != right ? left.lexicographicallyPrecedes(right) : a.lexicographicallyPrecedes(b)
        }
        var directions: [String: Bool] = [:]
        func isRightToLeft(_ locale: String) -> Bool {
            if let known = directions[locale] { return known }
            let rtl = (try? PriceLocale(locale))?.isRightToLeft ?? false
            directions[locale] = rtl
            return rtl
        }

        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(Self.reportText(title))</title>
            <style>
            body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d1d1f; }
            h1 { font-size: 1.3em; }
            .summary { font-weight: 600; }
            .legend span { display: inline-block; padding: 0 .5em; margin-right: .5em; border-radius: 3px; }
            table { border-collapse: collapse; }
            th, td { border: 1px solid #d2d2d7; padding: 2px 6px; white-space: nowrap; }
            thead th { position: sticky; top: 0; background: #f5f5f7; font-weight: 600; vertical-align: bottom; }
            th.product { position: sticky; left: 0; background: #f5f5f7; text-align: left; font-weight: normal; }
            thead th.product { z-index: 2; }
            th small { display: block; font-weight: normal; color: #6e6e73; }
            td.changed, .legend .changed { background: #ffe08a; }
            td.added, .legend .added { background: #c7f0c2; }
            td.removed, .legend .removed { background: #ffc9c9; }
            td.none { background: #fafafa; }
            del { color: #a1000f; }
            ins { text-decoration: none; font-weight: 600; }
            td del + ins::before { content: " → "; font-weight: normal; color: #6e6e73; }
            pre { background: #f5f5f7; padding: 1em; overflow-x: auto; }
            </style>
            </head>
            <body>
            <h1>\(Self.reportText(title))</h1>
            <p class="summary">\(Self.reportText(summary))</p>
            <p class="legend"><span class="changed">changed</span><span class="added">added</span>\
            <span class="removed">removed</span> Hover over a cell for its characters, escaped.</p>

            """
        if !full {
            html += "<p>The full matrix would have more than \(Self.grouped(Self.fullReportCellLimit)) cells; "
                + "only the \(Self.grouped(productOrder.count)) products and \(Self.grouped(accountOrder.count)) "
                + "accounts with a difference are shown.</p>\n"
        }
        html += "<table>\n<thead><tr><th class=\"product\">product</th>"
        for account in accountOrder {
            let row = columns[account]
            html += "<th>\(Self.reportText(row?.storefront ?? ""))<small>\(Self.html(String(decoding: account, as: UTF8.self).escapedIDForReport))</small>"
                + "<small>\(Self.reportText(row?.priceLocale ?? ""))</small></th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for product in productOrder {
            html += "<tr><th class=\"product\">\(Self.html(String(decoding: product, as: UTF8.self).escapedIDForReport))</th>"
            for account in accountOrder {
                let key = PriceSnapshot.Row.Key(product: product, account: account)
                let old = goldenRows[key]
                let new = currentRows[key]
                switch (old, new) {
                case (nil, nil):
                    html += "<td class=\"none\"></td>"
                case (let old?, nil):
                    html += "<td class=\"removed\"\(Self.direction(isRightToLeft(old.priceLocale)))"
                        + " title=\"removed: \(Self.html(old.escaped))\"><del>\(Self.reportPrice(old.formatted))</del></td>"
                case (nil, let new?):
                    html += "<td class=\"added\"\(Self.direction(isRightToLeft(new.priceLocale)))"
                        + " title=\"added: \(Self.html(new.escaped))\"><ins>\(Self.reportPrice(new.formatted))</ins></td>"
                case (let old?, let new?) where PriceSnapshotDiff.priceChanged(old, new):
                    html += "<td class=\"changed\"\(Self.direction(isRightToLeft(new.priceLocale)))"
                        + " title=\"\(Self.html(old.escaped)) → \(Self.html(new.escaped))\">"
                        + "<del>\(Self.reportPrice(old.formatted))</del><ins>\(Self.reportPrice(new.formatted))</ins></td>"
                case (let old?, let new?):
                    // The price is the same; another string of the row may have changed, named in the title.
                    let fields = PriceSnapshotDiff.fieldChanges(old, new).map(\.0)
                    html += fields.isEmpty
                        ? "<td\(Self.direction(isRightToLeft(new.priceLocale))) title=\"\(Self.html(new.escaped))\">"
                        : "<td class=\"changed\"\(Self.direction(isRightToLeft(new.priceLocale)))"
                            + " title=\"changed: \(Self.reportText(fields.joined(separator: ", ")))\">"
                    html += "\(Self.reportPrice(new.formatted))</td>"
                }
            }
            html += "</tr>\n"
        }
        html += "</tbody>\n</table>\n<h2>Report</h2>\n<pre>\(description.split(separator: "\n", omittingEmptySubsequences: false).map { Self.reportText(String($0)) }.joined(separator: "\n"))</pre>\n</body>\n</html>\n"
        return html
    }

    /// An identifier or other text for the page: escaped for HTML, and every control, bidi or
    /// invisible character written `\u{XXXX}`, so that what the page shows is the text's order.
    static func reportText(_ text: String) -> String { html(text.escapedForReport) }

    /// A formatted price for the page, as customers see it: bidi marks kept, other controls,
    /// overrides and invisible characters written `\u{XXXX}`.
    static func reportPrice(_ text: String) -> String { html(text.escapedForReportKeepingMarks) }

    private static func direction(_ rightToLeft: Bool) -> String {
        rightToLeft ? " dir=\"rtl\"" : ""
    }

    /// Text escaped for HTML content and attribute values.
    static func html(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
