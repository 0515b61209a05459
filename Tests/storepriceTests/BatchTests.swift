import Foundation
import TestSupport
import Testing

@Suite struct BatchTests {
    @Test func formatsLinesInOrderAndMarksBadOnes() throws {
        let input = """
            ja_JP@currency=JPY\t160
            en_US@currency=USD\t0.99
            no tab here
            xx_YY@currency=USD\t1
            de_DE@currency=EUR\t1.999
            ar_SA@currency=SAR\t9.99

            fr_CH@currency=CHF\t1234.5\r

            """
        let run = try runStorePrice(["format", "--batch"], input: Data(input.utf8))
        #expect(run.status == 65)
        let expected = """
            ja_JP@currency=JPY\t160\t\u{FFE5}160
            en_US@currency=USD\t0.99\t$0.99
            no tab here\t\terror: expected PRICE_LOCALE<TAB>AMOUNT, found 1 field
            xx_YY@currency=USD\t1\terror: unsupported locale 'xx_YY@currency=USD': ICU has no locale data for language 'xx'
            de_DE@currency=EUR\t1.999\terror: '1.999' needs 3 fraction digits; EUR prices show 2 fraction digits; give a rounding, such as half-even, to round it
            ar_SA@currency=SAR\t9.99\t\u{200F}٩٫٩٩\u{00A0}ر.س.\u{200F}
            \t\terror: empty line; expected PRICE_LOCALE<TAB>AMOUNT
            fr_CH@currency=CHF\t1234.5\t1\u{202F}234.50\u{00A0}CHF

            """
        expectBytes(run.output, expected)
        expectBytes(run.error, "storeprice: 4 lines failed\n")
    }

    /// A repeated line is answered from the lines seen before: the same bytes as the first time,
    /// its failure counted again, and an invalid UTF-8 line still named by its own number.
    @Test func repeatedLinesGiveTheSameOutputAndCountAgain() throws {
        var input = Data()
        let lines: [[UInt8]] = [
            Array("ja_JP@currency=JPY\t160".utf8), Array("de_DE@currency=EUR\t1.999".utf8), Array("no tab".utf8),
            Array("en_US@currency=USD\t".utf8) + [0xFF], Array("".utf8), Array("ja_JP@currency=JPY\t160\r".utf8),
            Array("\u{212A}o_KR@currency=KRW\t1".utf8), Array("ko_KR@currency=KRW\t1".utf8),
        ]
        for _ in 0..<3 {
            for line in lines { input.append(contentsOf: line + [0x0A]) }
        }
        let run = try runStorePrice(["format", "--batch"], input: input)
        #expect(run.status == 65)
        let once = [
            "ja_JP@currency=JPY\t160\t\u{FFE5}160",
            "de_DE@currency=EUR\t1.999\terror: '1.999' needs 3 fraction digits; EUR prices show 2 fraction digits; give a rounding, such as half-even, to round it",
            "no tab\t\terror: expected PRICE_LOCALE<TAB>AMOUNT, found 1 field",
            "en_US@currency=USD\t\u{FFFD}\terror: line LINE: not valid UTF-8",
            "\t\terror: empty line; expected PRICE_LOCALE<TAB>AMOUNT",
            "ja_JP@currency=JPY\t160\t\u{FFE5}160",
            "\u{212A}o_KR@currency=KRW\t1\terror: unsupported locale '\u{212A}o_KR@currency=KRW': a locale identifier is ASCII, such as ja_JP@currency=JPY",
            "ko_KR@currency=KRW\t1\t\u{20A9}1",
        ]
        var expected = ""
        for round in 0..<3 {
            for line in once { expected += line.replacingOccurrences(of: "LINE", with: String(round * 8 + 4)) + "\n" }
        }
        expectBytes(run.output, expected)
        expectBytes(run.error, "storeprice: 15 lines failed\n")
    }

    @Test func aLocaleCanonicallyEqualToAnEarlierOneIsStillRefused() throws {
        // The Kelvin sign (U+212A) is canonically equal to 'K': a lookup by Swift string would
        // find the formatter of the line before.
        let input = "ko_KR@currency=KRW\t1000\n\u{212A}o_KR@currency=KRW\t1000\nen_US@currency=KRW\t5\nen_US@currency=\u{212A}RW\t5\n"
        let run = try runStorePrice(["format", "--batch", "--escape"], input: Data(input.utf8))
        #expect(run.status == 65)
        let refusal = "error: unsupported locale '%@': a locale identifier is ASCII, such as ja_JP@currency=JPY"
        let expected = "ko_KR@currency=KRW\t1000\t\\u{20A9}1,000\n"
            + "\\u{212A}o_KR@currency=KRW\t1000\t" + refusal.replacingOccurrences(of: "%@", with: "\u{212A}o_KR@currency=KRW") + "\n"
            + "en_US@currency=KRW\t5\t\\u{20A9}5\n"
            + "en_US@currency=\\u{212A}RW\t5\t" + refusal.replacingOccurrences(of: "%@", with: "en_US@currency=\u{212A}RW") + "\n"
        expectBytes(run.output, expected)
    }

    @Test func echoedFieldsCannotActOnATerminal() throws {
        // ESC[2J clears a screen, OSC 52 writes the clipboard, U+202E reverses what follows.
        let input = "en_US@currency=USD\u{1B}[2J\t1\u{202E}\nen_US@currency=USD\t\u{1B}]52;c;aGk=\u{07}\n"
        let run = try runStorePrice(["format", "--batch"], input: Data(input.utf8))
        #expect(run.status == 65)
        let expected = "en_US@currency=USD\\u{001B}[2J\t1\\u{202E}\terror: unknown currency "
            + "'USD\\u{001B}[2J': an ISO 4217 code is three letters, such as USD\n"
        #expect(!run.output.contains("\u{1B}") && !run.output.contains("\u{202E}") && !run.output.contains("\u{07}"))
        expectBytes(String(run.output.prefix(while: { $0 != "\n" })) + "\n", expected)
    }

    @Test func aLineOfExactlyOneMiBIsReadAndOneByteMoreEndsTheRun() throws {
        let prefix = "en_US@currency=USD\t"
        let fits = prefix + String(repeating: "1", count: (1 << 20) - prefix.utf8.count)
        let ok = try runStorePrice(["format", "--batch"], input: Data((fits + "\nen_US@currency=USD\t1\n").utf8))
        // Read, and refused as an amount (over 100 characters), not as a line.
        let refusal = "\terror: invalid amount '\(String(repeating: "1", count: 64))…': longer than 100 characters\n"
        #expect(ok.output.utf8.count == (1 << 20) + refusal.utf8.count + "en_US@currency=USD\t1\t$1.00\n".utf8.count)
        #expect(ok.output.hasSuffix(refusal + "en_US@currency=USD\t1\t$1.00\n"))
        expectBytes(ok.error, "storeprice: 1 line failed\n")

        let over = try runStorePrice(["format", "--batch"], input: Data(("en_US@currency=USD\t1\n" + fits + "1\n").utf8))
        #expect(over.status == 65)
        expectBytes(over.output, "en_US@currency=USD\t1\t$1.00\n")
        expectBytes(over.error, "storeprice: cannot read 'standard input': line 2: longer than 1 MiB; a line holds one price locale and amount\n")
    }

    @Test func exitsZeroWhenEveryLineFormats() throws {
        let run = try runStorePrice(
            ["format", "--batch", "--rounding", "half-even", "--escape"],
            input: Data("ja_JP@currency=JPY\t120.5\nen_US@currency=USD\t2.675\n".utf8))
        #expect(run.status == 0)
        expectBytes(run.output, "ja_JP@currency=JPY\t120.5\t\\u{FFE5}120\nen_US@currency=USD\t2.675\t$2.68\n")
    }

    @Test func emptyInputIsNoOutput() throws {
        let run = try runStorePrice(["format", "--batch"])
        #expect(run.status == 0)
        #expect(run.output.isEmpty)
    }

    @Test func streamsManyLines() throws {
        // Many more lines than the output buffer holds, over many locales, in input order.
        let locales = ["ja_JP@currency=JPY", "en_US@currency=USD", "de_DE@currency=EUR", "ar_SA@currency=SAR"]
        var input = ""
        var expectedCount = 0
        for index in 0..<50_000 {
            input += "\(locales[index % 4])\t\(index)\n"
            expectedCount += 1
        }
        let run = try runStorePrice(["format", "--batch"], input: Data(input.utf8))
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == expectedCount + 1)
        #expect(lines[49_999] == "ar_SA@currency=SAR\t49999\t\u{200F}٤٩٬٩٩٩٫٠٠\u{00A0}ر.س.\u{200F}")
        #expect(lines[4] == "ja_JP@currency=JPY\t4\t\u{FFE5}4")
    }

    /// The cache of repeated lines gives each line its own output: 3,000 distinct lines, each
    /// twice, far apart and side by side. A cache that took another line of the same bucket for
    /// a line gave 1,908 of 6,000 outputs from another line.
    @Test func repeatedLinesEachGetTheirOwnOutput() throws {
        var lines: [String] = []
        for index in 0..<3_000 { lines.append("en_US@currency=USD\t\(index).99") }
        let input = lines + lines.reversed() + lines.flatMap { [$0, $0] }.prefix(200)
        let run = try runStorePrice(["format", "--batch"], input: Data((input.joined(separator: "\n") + "\n").utf8))
        #expect(run.status == 0, "\(run.error)")
        let outputs = run.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(outputs.count == input.count)
        var wrong = 0
        for (line, output) in zip(input, outputs) {
            let amount = line.split(separator: "\t")[1]
            let whole = Int(amount.split(separator: ".")[0]) ?? 0
            let grouped = whole >= 1_000 ? "\(whole / 1_000),\(String(whole % 1_000).leftPadded(3))" : "\(whole)"
            if output != "\(line)\t$\(grouped).99" { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) of \(input.count) outputs are not their line's")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
