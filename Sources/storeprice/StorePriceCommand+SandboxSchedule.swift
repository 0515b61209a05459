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

        @Option(help: "How many renewals before the subscription expires; the sandbox default when omitted.")
        var renewals: Int?

        @Option(help: OutputFormat.help)
        var format: OutputFormat = .table

        func validate() throws {
            if let start, (try? Date.ISO8601FormatStyle().parse(start)) == nil {
                throw ValidationError("--start '\(start.escapedForMessage)' is not an ISO 8601 time such as 2026-11-22T09:00:00Z.")
            }
        }

        func run() throws {
            let period = try SubscriptionPeriod(self.period)
            let startDate = try start.map { try Date.ISO8601FormatStyle().parse($0) }
                ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let schedule = try SandboxRenewals.schedule(for: period, start: startDate, renewals: renewals)
            let renewalCount = schedule.events.count - 2
            if format == .table {
                try Console.output(
                    "\(period) renews every \(Self.describe(seconds: schedule.interval)) in the sandbox; "
                        + "\(renewalCount) renewal\(renewalCount == 1 ? "" : "s"), then it expires.")
            }
            let rows: [[ListedValue]] = schedule.events.map { event in
                [.number(event.number), .text(event.kind.rawValue), .text(event.date.formatted(.iso8601))]
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
