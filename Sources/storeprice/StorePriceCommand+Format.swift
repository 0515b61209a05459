import ArgumentParser
import StorePrice

extension StorePriceCommand {
    struct Format: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Format one price, or a batch of prices from standard input.",
            usage: """
                storeprice format <amount> --locale <locale> [--display <display>] [--rounding <rounding>] [--escape]
                storeprice format --batch [--display <display>] [--rounding <rounding>] [--escape] < LINES
                """,
            discussion: """
                Examples:
                  storeprice format 1200 --locale ja_JP@currency=JPY        ￥1,200
                  storeprice format 0.99 --locale en_GB@currency=USD        US$0.99
                  storeprice format 1234.5 --locale de_CH@currency=CHF --escape
                                                          CHF\\u{00A0}1\\u{2019}234.50
                  storeprice format -1.99 --locale sv_SE@currency=SEK       −1,99 kr
                  printf 'ja_JP@currency=JPY\\t160\\n' | storeprice format --batch

                An amount is exact decimal text: digits, an optional leading '-', at most one '.'. \
                Without --rounding, an amount with more fraction digits than its currency uses is \
                an error, never rounded silently.

                --batch reads PRICE_LOCALE<TAB>AMOUNT lines and writes \
                PRICE_LOCALE<TAB>AMOUNT<TAB>FORMATTED lines in the same order. A bad line is \
                written as PRICE_LOCALE<TAB>AMOUNT<TAB>error: MESSAGE, the rest go on, and the exit \
                status is 65 if any line failed.
                """
        )

        @Argument(
            parsing: .allUnrecognized,
            help: ArgumentHelp("The amount, such as 0.99, 1200 or -1.99 (not with --batch).", valueName: "amount"))
        var arguments: [String] = []

        /// The amounts given, without a `--` separator (negative amounts need none).
        var amounts: [String] { arguments.filter { $0 != "--" } }

        @Option(help: "The price locale, such as ja_JP@currency=JPY or ja-JP-u-cu-jpy.")
        var locale: String?

        @OptionGroup var formatting: FormattingOptions

        @Flag(help: "Read PRICE_LOCALE<TAB>AMOUNT lines from standard input.")
        var batch = false

        func validate() throws {
            if batch {
                guard amounts.isEmpty else {
                    throw ValidationError("--batch reads amounts from standard input; remove '\(amounts[0])'.")
                }
                guard locale == nil else {
                    throw ValidationError("--batch reads each line's price locale; remove --locale.")
                }
            } else {
                guard let first = amounts.first else {
                    throw ValidationError("Give an amount, such as 'storeprice format 0.99 --locale en_US@currency=USD'.")
                }
                guard amounts.count == 1 else {
                    throw ValidationError("Give one amount; found '\(first)' and '\(amounts[1])'. Use --batch for many.")
                }
                if first.hasPrefix("--") {
                    throw ValidationError("Unknown option '\(first)'.")
                }
                guard locale != nil else {
                    throw ValidationError("Give the price locale, such as --locale ja_JP@currency=JPY.")
                }
            }
        }

        func run() throws {
            if batch {
                let failures = BatchFormatter(options: formatting.options, escape: formatting.escape).run()
                if failures > 0 {
                    Console.error("\(failures) line\(failures == 1 ? "" : "s") failed")
                    throw ExitCode.dataError
                }
                return
            }
            guard let amount = amounts.first, let locale else { throw ExitCode.validationFailure }
            do {
                let formatter = try PriceFormatter(locale: PriceLocale(locale), options: formatting.options)
                let text = try formatter.format(amount: amount)
                Console.output(formatting.escape ? UnicodeEscaping.escapeNonASCII(text) : text)
            } catch {
                Console.error(error.description)
                throw ExitCode.dataError
            }
        }
    }
}
