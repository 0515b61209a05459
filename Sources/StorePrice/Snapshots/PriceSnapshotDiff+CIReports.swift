/// The differences in forms CI systems read: JSON for scripts, JUnit XML for test dashboards.
extension PriceSnapshotDiff {
    /// One JSON object: whether the snapshots match, counts, and every changed string, added row
    /// and removed row. Strings are exact (JSON escapes); `escaped` copies show invisible
    /// characters as `\u{XXXX}`.
    ///
    /// ```json
    /// {"matches":false,"compared":5608,"changed_strings":1,"changed":[{"product":"com.example.level1",
    /// "account":"jpn","price_locale":"ja_JP@currency=JPY","field":"formatted","before":"¥160",
    /// "after":"￥160","before_escaped":"\\u{00A5}160","after_escaped":"\\u{FFE5}160"}],"added":[],
    /// "removed":[],"summary":"…"}
    /// ```
    public func jsonReport() -> String {
        func quote(_ text: String?) -> String { text.map(JSONText.quote) ?? "null" }
        func row(_ row: PriceSnapshot.Row) -> String {
            #"{"product":\#(quote(row.product)),"account":\#(quote(row.account)),"price_locale":\#(quote(row.priceLocale)),"#
                + #""formatted":\#(quote(row.formatted)),"escaped":\#(quote(row.escaped))}"#
        }
        var changes: [String] = []
        for change in changed {
            var fields: [(String, String?, String?)] = []
            if Self.priceChanged(change.before, change.after) {
                fields.append(("formatted", change.before.formatted, change.after.formatted))
            }
            fields += Self.fieldChanges(change.before, change.after)
            for (field, before, after) in fields {
                changes.append(
                    #"{"product":\#(quote(change.after.product)),"account":\#(quote(change.after.account)),"#
                        + #""price_locale":\#(quote(change.after.priceLocale)),"field":\#(quote(field)),"#
                        + #""before":\#(quote(before)),"after":\#(quote(after)),"#
                        + #""before_escaped":\#(quote(before.map(UnicodeEscaping.escapeNonASCII))),"#
                        + #""after_escaped":\#(quote(after.map(UnicodeEscaping.escapeNonASCII)))}"#)
            }
        }
        return #"{"matches":\#(isEmpty),"compared":\#(compared),"changed_strings":\#(changedStrings),"#
            + #""changed":[\#(changes.joined(separator: ","))],"added":[\#(added.map(row).joined(separator: ","))],"#
            + #""removed":[\#(removed.map(row).joined(separator: ","))],"summary":\#(quote(summary))}"#
    }

    /// A JUnit XML report: one test case per row (product and account), failing where a string
    /// changed or the row was added or removed, with the changes escaped in the message.
    ///
    /// - Parameter name: the test suite's name, such as the snapshot's path.
    public func junitReport(name: String) -> String {
        var cases: [String] = []
        var failures = 0
        func testCase(_ row: PriceSnapshot.Row, failure: String?) {
            var text = #"<testcase classname="\#(Self.html(row.account.escapedIDForReport))" name="\#(Self.html(row.product.escapedIDForReport))""#
            if let failure {
                failures += 1
                text += #"><failure message="\#(Self.xml(failure))"/></testcase>"#
            } else {
                text += "/>"
            }
            cases.append(text)
        }
        let changes = Dictionary(changed.map { (PriceSnapshot.Row.Key($0.after), $0) }, uniquingKeysWith: { first, _ in first })
        let addedKeys = Set(added.map(PriceSnapshot.Row.Key.init))
        for row in current.rows {
            guard let change = changes[PriceSnapshot.Row.Key(row)] else {
                testCase(row, failure: addedKeys.contains(PriceSnapshot.Row.Key(row)) ? "added: \(row.escaped) in \(row.priceLocale)" : nil)
                continue
            }
            var parts: [String] = []
            if Self.priceChanged(change.before, change.after) {
                parts.append("formatted: \(change.before.escaped) → \(change.after.escaped)")
            }
            for (field, before, after) in Self.fieldChanges(change.before, change.after) {
                parts.append("\(field): \(before.map(UnicodeEscaping.escapeNonASCII) ?? "(none)") → \(after.map(UnicodeEscaping.escapeNonASCII) ?? "(none)")")
            }
            testCase(row, failure: parts.joined(separator: "; "))
        }
        for row in removed { testCase(row, failure: "removed: \(row.escaped) in \(row.priceLocale)") }
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + #"<testsuites><testsuite name="\#(Self.xml(name))" tests="\#(cases.count)" failures="\#(failures)">"# + "\n"
            + cases.joined(separator: "\n") + "\n</testsuite></testsuites>\n"
    }

    /// Text for an XML 1.0 attribute: markup escaped, and every character XML cannot hold, or
    /// that hides or reorders text, written `\u{XXXX}`.
    static func xml(_ text: String) -> String { html(text.escapedForReport) }
}
