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
            Output is the system ICU's, byte for byte.

            Exit status: 0 success, 1 verify found differences, 64 usage error, 65 bad data (an \
            amount, locale, currency, storefront, accounts file, catalog, product list or \
            snapshot), 73 an output file cannot be written, 74 standard output cannot be written \
            (a full disk, /dev/full); a closed pipe ends the run quietly with 141.
            """,
        version: "storeprice \(VersionInfo.current) (ICU \(VersionInfo.icu), CLDR \(VersionInfo.cldr))",
        subcommands: [
            Format.self, Render.self, Snapshot.self, Verify.self, Storefronts.self, Accounts.self, SandboxSchedule.self,
        ]
    )

    /// Parses and runs the command. Data errors from any subcommand end here: one line on standard
    /// error and status 65 (73 for an output file that cannot be written), never a stack trace.
    static func main() {
        // An interrupted run leaves no temporary output file behind.
        TemporaryFiles.removeOnTerminationSignals()
        // A file past `ulimit -f` is a failed write (EFBIG), reported, not a signal that kills the
        // run and leaves its temporary file.
        signal(SIGXFSZ, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = unknownSubcommand(arguments) {
            let names = subcommandNames
            let near = closestMatches(to: unknown, in: names)
            Console.toStandardError(
                shown("Error: Unknown command '\(unknown)'." + (near.isEmpty ? "" : " Did you mean '\(near[0])'?"))
                    + "\nUsage: storeprice <subcommand>; the subcommands are " + names.joined(separator: ", ")
                    + ".\n  See 'storeprice --help' for more information.\n")
            exit(withError: ExitCode.validationFailure)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as StorePriceError {
            Progress.clear()
            Console.error(error.description)
            if case .unwritableFile = error {
                exit(withError: ExitCode.cannotCreateOutput)
            }
            exit(withError: ExitCode.dataError)
        } catch let failure as WriteFailure {
            Progress.clear()
            if failure.isClosedPipe { exit(withError: ExitCode.closedPipe) }
            Console.error(failure.description)
            exit(withError: failure.path == nil ? ExitCode.outputError : ExitCode.cannotCreateOutput)
        } catch {
            let code = exitCode(for: error)
            // Help and --version print as argument-parser prints them.
            if code == .success { exit(withError: error) }
            // Usage errors quote what was typed: escaped and cut, as every other message.
            let message = fullMessage(for: error)
            if !message.isEmpty { Console.toStandardError(Self.shown(message) + "\n") }
            exit(withError: code)
        }
    }

    /// The first argument when it names no subcommand (`storeprice rendr x`): argument-parser
    /// would only say that the arguments were unexpected.
    static func unknownSubcommand(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        return (subcommandNames + ["help"]).contains(first) ? nil : first
    }

    /// The subcommands' names: their own, or their type's name in lower case, as argument-parser
    /// derives it.
    static var subcommandNames: [String] {
        configuration.subcommands.map { $0.configuration.commandName ?? String(describing: $0).lowercased() }
    }

    /// A usage message as printed: control and bidi-control characters escaped, and each quoted
    /// value cut at 64 characters.
    static func shown(_ message: String) -> String {
        message.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var out = ""
            var quoted = ""
            var inQuote = false
            for character in UnicodeEscaping.escapeForTerminal(String(line)) {
                if character == "'" {
                    if inQuote { out += quoted.count > 64 ? String(quoted.prefix(64)) + "…" : quoted }
                    quoted = ""
                    inQuote.toggle()
                    out.append(character)
                } else if inQuote {
                    quoted.append(character)
                } else {
                    out.append(character)
                }
            }
            return out + (inQuote ? (quoted.count > 64 ? String(quoted.prefix(64)) + "…" : quoted) : "")
        }.joined(separator: "\n")
    }
}
