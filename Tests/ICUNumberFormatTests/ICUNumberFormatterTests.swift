import Foundation
import ICUNumberFormat
import TestSupport
import Testing

@Suite struct ICUNumberFormatterTests {
    @Test func formatsDecimalTextWithASkeleton() throws {
        let formatter = try ICUNumberFormatter(skeleton: "currency/JPY unit-width-short", locale: "ja_JP")
        expectBytes(try formatter.format(decimal: "1200"), "\u{FFE5}1,200")
        expectBytes(try formatter.format(decimal: "-500"), "-\u{FFE5}500")
    }

    @Test func formatsDecimalsBeyondDoublePrecision() throws {
        let formatter = try ICUNumberFormatter(skeleton: "currency/PLN unit-width-short", locale: "pl_PL")
        expectBytes(try formatter.format(decimal: "114.99"), "114,99\u{00A0}zł")
        let plain = try ICUNumberFormatter(skeleton: "precision-unlimited", locale: "en_US")
        expectBytes(try plain.format(decimal: "12345678901234567890.123456789"), "12,345,678,901,234,567,890.123456789")
    }

    @Test func refusesABadSkeleton() {
        #expect(throws: ICUError.self) {
            try ICUNumberFormatter(skeleton: "currency/", locale: "en_US")
        }
    }

    @Test func refusesTextThatIsNotADecimal() throws {
        let formatter = try ICUNumberFormatter(skeleton: "currency/USD", locale: "en_US")
        #expect(throws: ICUError.self) { try formatter.format(decimal: "1,99") }
    }

    @Test func reportsRoundingItWasToldNotToDo() throws {
        let formatter = try ICUNumberFormatter(skeleton: "currency/JPY rounding-mode-unnecessary", locale: "ja_JP")
        #expect {
            try formatter.format(decimal: "120.5")
        } throws: { error in
            (error as? ICUError)?.name == "U_FORMAT_INEXACT_ERROR"
        }
    }

    @Test func namesICUErrors() {
        #expect(ICUError(code: 1).name == "U_ILLEGAL_ARGUMENT_ERROR")
        #expect(ICUError(code: 1).description == "U_ILLEGAL_ARGUMENT_ERROR")
    }

    /// The version the library reports is the one pkg-config says the package was built against,
    /// and its CLDR is the one that ICU release carries (ICU 66 and later: CLDR = ICU − 30).
    @Test func knowsItsVersions() throws {
        let pkgConfig = Process()
        pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pkgConfig.arguments = ["pkg-config", "--modversion", "icu-i18n"]
        let pipe = Pipe()
        pkgConfig.standardOutput = pipe
        try pkgConfig.run()
        pkgConfig.waitUntilExit()
        let built = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        expectBytes(ICU.version, built)
        let icuMajor = try #require(Int(ICU.version.split(separator: ".")[0]))
        let cldrMajor = try #require(Int(ICU.cldrVersion.split(separator: ".")[0]))
        #expect(cldrMajor == icuMajor - 30, "ICU \(ICU.version) carries CLDR \(ICU.cldrVersion)")
    }

    @Test func knowsLocalesRegionsAndCurrencies() throws {
        #expect(ICU.availableLanguages.contains("ja"))
        #expect(ICU.availableLanguages.contains("zh_Hant"))
        #expect(!ICU.availableLanguages.contains("xx"))
        #expect(ICU.isKnownRegion("JP"))
        #expect(ICU.isKnownRegion("419"))
        #expect(!ICU.isKnownRegion("QQ"))
        #expect(ICU.currencyCodes.contains("KWD"))
        #expect(!ICU.currencyCodes.contains("ZZZ"))
        #expect(try ICU.fractionDigits(currency: "KWD") == 3)
        #expect(ICU.defaultCurrency(forLocale: "ja_JP") == "JPY")
        #expect(try ICU.localeID(forLanguageTag: "ja-JP-u-cu-jpy") == "ja_JP@currency=jpy")
    }

    @Test(arguments: [
        [UInt16](), [0x24, 0x30], [0x00A0], [0x20AC], [0xD83D, 0xDE00], [0xD800], [0xDC00, 0x41], [0xFFE5, 0x31],
    ])
    func transcodesUTF16LikeTheStandardLibrary(_ units: [UInt16]) {
        let ours = units.withUnsafeBufferPointer { buffer in
            UTF8Transcoding.withUTF8(buffer) { Array($0) }
        }
        #expect(ours == Array(String(decoding: units, as: UTF16.self).utf8))
    }
}
