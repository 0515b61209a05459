import ArgumentParser
import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct StorePriceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storeprice",
        abstract: "Show app-store prices exactly as the store shows them, in the price locale.",
        discussion: """
            A price is shown in its price locale: the storefront's language, region and currency \
            (ja_JP@currency=JPY), never the device's or this machine's locale, and never converted. \
            Output is the system ICU's, byte for byte; with --style app-store, it is written as \
            the App Store writes it (¥800, USD 4.99), from rules resting on Apple's own strings.

            Exit status: 0 success, 1 verify found differences, 64 usage error, 65 bad data (an \
            amount, locale, currency, storefront, accounts file, catalog, product list, \
            snapshot or paywall template), 69 App Store Connect refused or could not be reached (asc pull), 73 an output file cannot be written, 74 standard output cannot be written \
            (a full disk, /dev/full); a closed pipe ends the run quietly with 141.
            """,
        version: "storeprice \(VersionInfo.current) (ICU \(VersionInfo.icu), CLDR \(VersionInfo.cldr))",
        subcommands: [
            Format.self, Paywall.self, Render.self, Snapshot.self, Verify.self, Storefronts.self, Accounts.self,
            SandboxSchedule.self, AppStoreConnect.self, Play.self,
        ]
    )

    /// Parses and runs the command. Data errors from any subcommand end here: one line on standard
    /// error and status 65 (73 for an output file that cannot be written), never a stack trace.
    static func main() {
        reserveStandardDescriptors()
        // An interrupted run leaves no temporary output file behind.
        TemporaryFiles.removeOnTerminationSignals()
        // A file past `ulimit -f` is a failed write (EFBIG), reported, not a signal that kills the
        // run and leaves its temporary file.
        signal(SIGXFSZ, SIG_IGN)
        if let unknown = unknownSubcommand(Array(CommandLine.arguments.dropFirst())) {
            let names = subcommandNames
            let near = closestMatches(to: unknown.lowercased(), in: names)
            Console.toStandardError(
                shown("Error: Unknown command '\(unknown.escapedForMessage)'." + (near.isEmpty ? "" : " Did you mean '\(near[0])'?"))
                    + "\nUsage: storeprice <subcommand>; the subcommands are " + names.joined(separator: ", ")
                    + ".\n  See 'storeprice --help' for more information.\n")
            exit(withError: ExitCode.validationFailure)
        }
        if let option = optionAfterEndOfOptions(Array(CommandLine.arguments.dropFirst())) {
            Console.toStandardError(
                shown("Error: '\(option.escapedForMessage)' comes after '--', which ends the options; put options before it.")
                    + "\n")
            exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as StorePriceError {
            Progress.clear()
            Console.error(error.description + hint(for: error))
            if case .unwritableFile = error {
                exit(withError: ExitCode.cannotCreateOutput)
            }
            exit(withError: ExitCode.dataError)
        } catch let failure as AppStoreConnectClient.Failure {
            Console.error(failure.description)
            exit(withError: ExitCode.serviceUnavailable)
        } catch let failure as WriteFailure {
            Progress.clear()
            if failure.isClosedPipe { exit(withError: ExitCode.closedPipe) }
            Console.error(failure.description)
            exit(withError: failure.path == nil ? ExitCode.outputError : ExitCode.cannotCreateOutput)
        } catch {
            let code = exitCode(for: error)
            // Help, --version and completion scripts are written as any output is: a failed
            // write (a full disk, /dev/full) is status 74, not success.
            if code == .success {
                let text = fullMessage(for: error)
                do {
                    if !text.isEmpty { try Console.output(text) }
                } catch let failure {
                    if failure.isClosedPipe { exit(withError: ExitCode.closedPipe) }
                    Console.error(failure.description)
                    exit(withError: ExitCode.outputError)
                }
                exit(withError: ExitCode.success)
            }
            // Usage errors quote what was typed: escaped and cut, as every other message.
            let message = Self.withArgumentsEscaped(fullMessage(for: error), Array(CommandLine.arguments.dropFirst()))
            if !message.isEmpty { Console.toStandardError(Self.shown(message) + "\n") }
            exit(withError: code)
        }
    }

    /// An option of the subcommand written after `--`, where argument-parser takes it for an
    /// argument and says only that arguments were unexpected. `format` says it with an example of
    /// its own (a negative amount after `--`).
    static func optionAfterEndOfOptions(_ arguments: [String]) -> String? {
        guard let end = arguments.firstIndex(of: "--"), let name = arguments.first,
            name != "format", let type = configuration.subcommands.first(where: { $0.configuration.commandName == name })
        else { return nil }
        let help = type.helpMessage(columns: 1000)
        let options = Set(help.split(whereSeparator: { !($0.isLetter || $0 == "-") }).filter { $0.hasPrefix("--") && $0.count > 2 })
        return arguments[(end + 1)...].first { options.contains(Substring($0.split(separator: "=").first ?? "")) }
    }

    /// The option that avoids an error, where the library's message names what to do and the CLI
    /// names its option: a rounding, any product ID, another catalog format.
    static func hint(for error: StorePriceError) -> String {
        switch error {
        case .excessPrecision: return " (--rounding half-even)"
        case .invalidAmount(_, let reason) where reason.hasSuffix("give a rounding, such as half-even, to round it"):
            return " (--rounding half-even)"
        case .invalidCatalog(_, _, _, let reason) where reason.hasSuffix("give a rounding, such as half-even, to round it"):
            // A catalog stops at its first such price: the option rounds every one of them.
            return " (--rounding half-even rounds every such price in the file)"
        case .invalidCatalog(_, _, _, let reason) where reason.hasSuffix("is not an App Store product ID: 1 to 100 letters, digits, '.', '-' or '_'"):
            // The library names the rule; the CLI names the option that lifts it.
            return "; --any-product-id keeps any text"
        case .invalidCatalog(_, _, _, let reason) where reason.hasSuffix("read it as a JSON Lines catalog, format jsonl"):
            return " (--catalog-format jsonl)"
        case .unknownAccount(let name, let source, _) where source == "built-in" && (try? PlayTester.named(name)) != nil:
            return "; '\(name.escapedForMessage)' is a Google Play tester: add --store play"
        default: return ""
        }
    }

    /// Runs `body`, naming `option` after a period it refuses: the store's rule for periods lives
    /// in the library, which knows no options.
    static func periods<Result>(
        of option: String, _ body: () throws(StorePriceError) -> Result
    ) throws(StorePriceError) -> Result {
        do {
            return try body()
        } catch {
            guard case .invalidPeriod(let text, let reason) = error, !reason.hasSuffix(")") else { throw error }
            throw .invalidPeriod(text, reason: "\(reason) (\(option))")
        }
    }

    /// Opens /dev/null on each of standard input, output and error that is closed at start
    /// (`2>&-`), so that no file the run opens takes descriptor 0, 1 or 2 and gets its notes or
    /// rows by mistake. It is opened for reading only: output to a closed standard output still
    /// fails (status 74), as it would have.
    static func reserveStandardDescriptors() {
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open() takes the lowest free descriptor: this one, as those below it are open.
            let opened = open("/dev/null", O_RDONLY)
            if opened != descriptor, opened >= 0 { close(opened) }
        }
    }

    /// The first argument when it names no subcommand (`storeprice rendr x`): argument-parser
    /// would only say that the arguments were unexpected.
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        // `storeprice help rendr` is asked about the second argument.
        let asked = arguments.first == "help" ? Array(arguments.dropFirst()) : arguments
        guard let first = asked.first, !first.hasPrefix("-") else { return nil }
        return (subcommandNames + ["help"]).contains(first) ? nil : first
    }

    /// The subcommands' names: their own, or their type's name in lower case, as argument-parser
    /// derives it. Every subcommand names itself: deriving a name from a type costs a run about
    /// a millisecond of start-up.
    static var subcommandNames: [String] {
        configuration.subcommands.map { $0.configuration.commandName ?? String(describing: $0).lowercased() }
    }

    /// A message with every typed value that holds a control character or is long replaced by
    /// its escaped, cut form, whatever quotes it holds: an apostrophe in a value cannot end its
    /// quoting early and let the rest through.
    static func withArgumentsEscaped(_ message: String, _ arguments: [String]) -> String {
        var message = message
        // `--format=VALUE` is quoted as VALUE.
        let values = arguments + arguments.compactMap { argument in
            argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
        }
        for value in values.sorted(by: { $0.count > $1.count }) where value.count > 64 || value.contains(where: { character in
            character.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "'" }
        }) {
            message = message.replacingOccurrences(of: value, with: value.escapedForMessage.replacingOccurrences(of: "'", with: "\\u{0027}"))
        }
        return message
    }

    /// A usage message as printed: control and bidi-control characters escaped, line breaks kept,
    /// and each line cut at 600 characters. The values typed into it were escaped and cut before
    /// (``withArgumentsEscaped(_:_:)``); an apostrophe in the message's own words ("locale's") is
    /// only an apostrophe.
    static func shown(_ message: String) -> String {
        func cut(_ text: String, _ limit: Int) -> String { text.count > limit ? String(text.prefix(limit)) + "…" : text }
        return message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { cut(UnicodeEscaping.escapeForTerminal(String($0)), 600) }
            .joined(separator: "\n")
    }
}
