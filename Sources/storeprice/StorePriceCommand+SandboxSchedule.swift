import ArgumentParser
import StorePrice

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StorePriceCommand {
    struct SandboxSchedule: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sandbox-schedule",
            abstract: "List the renewals a sandbox tester sees for an auto-renewable subscription.",
            discussion: """
                In the sandbox, subscriptions renew on a compressed clock: 1 week → 3 minutes, \
                1 month → 5 minutes, 2 months → 10, 3 months → 15, 6 months → 30, 1 year → 1 hour. \
                After a number of renewals (12 by default) the subscription stops renewing and \
                expires. The durations, the cap and their source are in Data/sandbox-renewals.json; \
                older Apple documentation gave a cap of 6, so --renewals changes it.

                Times are UTC, in ISO 8601.

                Examples:
                  storeprice sandbox-schedule --period P1M
                  storeprice sandbox-schedule --period P1Y --start 2026-11-22T09:00:00Z \\
                    --renewals 6

                Exit status: 0 printed, 64 usage error, 65 a period that does not renew in the sandbox, 74 standard output cannot be written, 141 standard output closed by its reader (| head).
                """
        )

        @Option(help: ArgumentHelp("The subscription's period: P1W, P1M, P2M, P3M, P6M or P1Y.", valueName: "period"))
        var period: String

        @Option(help: ArgumentHelp("When the tester buys, in ISO 8601 (2026-11-22T09:00:00Z); now when omitted.", valueName: "time"))
        var start: String?

        // Unconditional: `--renewals -1` is a value to refuse in words, not a missing one.
        @Option(parsing: .unconditional, help: "How many renewals before the subscription expires; the sandbox default when omitted.")
        var renewals: Int?

        @Option(help: OutputFormat.help)
        var format: OutputFormat = .table

        func validate() throws {
            let startDate = try start.map(Self.parseStart)
            if let renewals, !(0...1000).contains(renewals) {
                throw ValidationError("--renewals \(renewals) is out of range; give 0 to 1000.")
            }
            // A schedule past 9999 is a --start too late, said here with this command's usage; a
            // bad --period is reported by run() as bad data.
            if let startDate, let period = try? SubscriptionPeriod(self.period),
                let schedule = try? SandboxRenewals.schedule(for: period, start: startDate, renewals: renewals),
                let last = schedule.events.last, last.date > Self.latest
            {
                throw ValidationError(
                    "--start '\((start ?? "").escapedForMessage)' is too late: the schedule would end after 9999-12-31T23:59:59Z.")
            }
        }

        /// The latest time a schedule may reach: what --start accepts, and ISO 8601's four digits.
        static let latest = CivilTime.latest

        /// A --start time, checked field by field and computed in the proleptic Gregorian
        /// calendar: Foundation's parser moves 2026-02-30 to March, 09:00:60 to 09:01:00 and
        /// 1582-10-10 to 1582-10-20 (its Julian switch), and drops a fraction of a second.
        static func parseStart(_ text: String) throws -> Date {
            let example = "such as 2026-11-22T09:00:00Z"
            guard
                let match = text.wholeMatch(
                    of: /([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?(Z|[+-]([0-9]{2}):([0-9]{2}))/)
            else {
                throw ValidationError("--start '\(text.escapedForMessage)' is not an ISO 8601 time \(example).")
            }
            let (year, month, day) = (Int(match.1) ?? 0, Int(match.2) ?? 0, Int(match.3) ?? 0)
            let (hour, minute, second) = (Int(match.4) ?? 0, Int(match.5) ?? 0, Int(match.6) ?? 0)
            func refuse(_ field: String) -> ValidationError {
                ValidationError("--start '\(text.escapedForMessage)' has no such \(field); give a real time \(example).")
            }
            guard (1...12).contains(month) else { throw refuse("month") }
            guard (1...CivilTime.daysIn(month, of: year)).contains(day) else { throw refuse("day") }
            guard hour < 24 else { throw refuse("hour") }
            guard minute < 60 else { throw refuse("minute") }
            guard second < 60 else { throw refuse("second") }
            var offset = 0
            if let hours = match.9, let minutes = match.10 {
                guard let hours = Int(hours), let minutes = Int(minutes), hours <= 23, minutes <= 59 else {
                    throw ValidationError("--start '\(text.escapedForMessage)' has no such UTC offset; give Z or one such as +09:00, \(example).")
                }
                offset = (hours * 3600 + minutes * 60) * (match.8.hasPrefix("-") ? -1 : 1)
            }
            if match.7 != nil {
                throw ValidationError("--start '\(text.escapedForMessage)' has a fraction of a second; renewals are whole seconds, \(example).")
            }
            let seconds = CivilTime.daysFromEpoch(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
            let date = Date(timeIntervalSince1970: Double(seconds))
            guard date >= CivilTime.earliest, date <= latest else {
                throw ValidationError(
                    "--start '\(text.escapedForMessage)' is out of range; give a time from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z "
                        + "in UTC.")
            }
            return date
        }

        func run() throws {
            let period = try StorePriceCommand.periods(of: "--period") { () throws(StorePriceError) in try SubscriptionPeriod(self.period) }
            let startDate = try start.map(Self.parseStart)
                ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let schedule = try StorePriceCommand.periods(of: "--period") { () throws(StorePriceError) in
                try SandboxRenewals.schedule(for: period, start: startDate, renewals: renewals)
            }
            let renewalCount = schedule.events.count - 2
            if format == .table {
                try Console.output(
                    "\(period) renews every \(Self.describe(seconds: schedule.interval)) in the sandbox; "
                        + "\(renewalCount) renewal\(renewalCount == 1 ? "" : "s"), then it expires.")
            }
            let rows: [[ListedValue]] = schedule.events.map { event in
                [.number(event.number), .text(event.kind.rawValue), .text(CivilTime.iso8601(event.date))]
            }
            try Console.output(text: Listing.records(["number", "event", "at"], rows: rows, format: format))
        }

        static func describe(seconds: Int) -> String {
            if seconds % 3600 == 0 { return seconds == 3600 ? "hour" : "\(seconds / 3600) hours" }
            if seconds % 60 == 0 { return seconds == 60 ? "minute" : "\(seconds / 60) minutes" }
            return "\(seconds) seconds"
        }
    }
}
