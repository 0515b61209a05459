import ArgumentParser
import Foundation
import StorePrice

/// `--date`: the day whose App Store Connect prices are shown.
struct EffectiveDateOption: ParsableArguments {
    @Option(
        name: .customLong("date"),
        help: ArgumentHelp(
            "For App Store Connect responses: the prices in effect on this day, YYYY-MM-DD in UTC (default: today).",
            discussion: "A price that starts after the day is left out, with a note; give a later day to see it.",
            valueName: "day"))
    var day: String?

    func validate() throws {
        if let day, !CivilTime.isDay(day) {
            throw ValidationError("--date '\(day.escapedForMessage)' is not a day; write it YYYY-MM-DD, such as 2026-11-28.")
        }
    }

    /// Refuses a day for a catalog that has no dated prices.
    func validate(catalog: String, format: CatalogFormat?) throws {
        // A path that does not exist is reported when it is opened.
        let kind = Catalog.kind(of: catalog)
        guard day != nil, kind != nil, kind != .folder, (format ?? CatalogFormat(path: catalog)) != .appStoreConnect else { return }
        throw ValidationError(
            "--date chooses among App Store Connect's dated prices; give it with a folder or .json file of responses.")
    }

    /// The start of the day in UTC, or now.
    var date: Date {
        day.flatMap(CivilTime.date(ofDay:)) ?? Date()
    }
}
