#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// Days and times in the proleptic Gregorian calendar, as ISO 8601 writes them, for every date a
/// user types and every time the CLI writes: Foundation's ISO 8601 parser and formatter switch
/// to the Julian calendar before 15 October 1582, so 1582-10-10 would come out as 1582-10-20.
/// Computed from the date's fields (Howard Hinnant's days_from_civil and civil_from_days).
package enum CivilTime {
    /// The first and last times: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    package static let earliest = Date(timeIntervalSince1970: -62_135_596_800)
    package static let latest = Date(timeIntervalSince1970: 253_402_300_799)

    package static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    package static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a day.
    package static func daysFromEpoch(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01.
    package static func day(daysFromEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whole days from 1970-01-01 to a time, and whole seconds into its day (UTC).
    static func daysAndSeconds(_ date: Date) -> (days: Int, seconds: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (days, seconds - days * 86_400)
    }

    /// A whole second as ISO 8601 in UTC: `2026-11-22T09:00:00Z`.
    package static func iso8601(_ date: Date) -> String {
        let inDay = daysAndSeconds(date).seconds
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(day(of: date))T\(two(inDay / 3600)):\(two(inDay / 60 % 60)):\(two(inDay % 60))Z"
    }
}

extension CivilTime {
    /// The day of a time in UTC, as ISO 8601 writes it and App Store Connect's prices date
    /// themselves: `2026-11-28`.
    package static func day(of date: Date) -> String {
        let (year, month, day) = day(daysFromEpoch: daysAndSeconds(date).days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return String(repeating: "0", count: max(0, 4 - String(year).count)) + "\(year)-\(two(month))-\(two(day))"
    }

    /// The start (00:00 UTC) of a day written `YYYY-MM-DD`, or nil when it is no real day.
    package static func date(ofDay text: String) -> Date? {
        guard isDay(text) else { return nil }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        return Date(timeIntervalSince1970: TimeInterval(daysFromEpoch(parts[0], parts[1], parts[2]) * 86_400))
    }

    /// Whether text is a real day written `YYYY-MM-DD`, from 0001-01-01 to 9999-12-31.
    package static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return false }
        return year >= 1 && (1...12).contains(month) && (1...daysIn(month, of: year)).contains(day)
    }
}
