#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The compressed renewal clock a sandbox tester's auto-renewable subscription runs on.
///
/// In the sandbox a monthly subscription renews every 5 minutes, a yearly one every hour, and
/// renewals stop after a cap, after which the subscription expires. The durations and the cap
/// are data, in `Data/sandbox-renewals.json`, with their source:
///
/// | period | renews every |
/// |---|---|
/// | `P1W` | 3 minutes |
/// | `P1M` | 5 minutes |
/// | `P2M` | 10 minutes |
/// | `P3M` | 15 minutes |
/// | `P6M` | 30 minutes |
/// | `P1Y` | 1 hour |
///
/// ```swift
/// let schedule = try SandboxRenewals.schedule(for: SubscriptionPeriod("P1M"), start: Date(timeIntervalSince1970: 0))
/// schedule.events[1]   // renewal 1 at 1970-01-01T00:05:00Z
/// ```
public enum SandboxRenewals {
    /// The most renewals a sandbox subscription gets before it expires, by default.
    public static var renewalCap: Int { data.renewalCap }

    /// Where the durations and cap come from, and what is uncertain about them.
    public static var source: String { data.source + " " + data.note }

    /// The periods with a sandbox renewal duration.
    public static var periods: [SubscriptionPeriod] {
        data.renewalSeconds.keys.compactMap { try? SubscriptionPeriod($0) }
            .sorted { $0.twelfthsOfADay < $1.twelfthsOfADay }
    }

    /// How long one period of a subscription lasts in the sandbox, in seconds.
    ///
    /// - Throws: ``StorePriceError/invalidPeriod(_:reason:)`` for a period auto-renewable
    ///   subscriptions do not have, such as `P3D`.
    public static func renewalInterval(for period: SubscriptionPeriod) throws(StorePriceError) -> Int {
        // The store's rule first, in its words: the sandbox renews what the store sells.
        try StorePeriods.appStore.checkSubscription(period)
        guard let seconds = data.renewalSeconds[period.iso8601] else {
            throw .invalidPeriod(period.iso8601, reason: "the sandbox has no renewal duration for it in Data/sandbox-renewals.json")
        }
        return seconds
    }

    /// One event of a sandbox subscription's life.
    public struct Event: Hashable, Sendable {
        /// What happens.
        public enum Kind: String, Hashable, Sendable {
            /// The tester buys the subscription.
            case purchase
            /// The sandbox renews it.
            case renewal
            /// It stops renewing and expires.
            case expiration
        }

        /// What happens.
        public let kind: Kind
        /// 0 for the purchase, 1 and up for renewals, the cap plus one for the expiration.
        public let number: Int
        /// When.
        public let date: Date
    }

    /// A sandbox subscription's purchase, renewals and expiration.
    public struct Schedule: Hashable, Sendable {
        /// The subscription's period.
        public let period: SubscriptionPeriod
        /// Seconds between renewals.
        public let interval: Int
        /// The purchase, each renewal, then the expiration.
        public let events: [Event]
    }

    /// The events a tester sees after buying a subscription at `start`.
    ///
    /// - Parameters:
    ///   - period: the subscription's period, such as `P1M`.
    ///   - start: when the tester buys.
    ///   - renewals: how many renewals before the subscription expires; ``renewalCap`` by default.
    public static func schedule(for period: SubscriptionPeriod, start: Date, renewals: Int? = nil)
        throws(StorePriceError) -> Schedule
    {
        let interval = try renewalInterval(for: period)
        let cap = renewals ?? renewalCap
        guard (0...1000).contains(cap) else {
            throw .invalidPeriod(period.iso8601, reason: "the number of renewals must be 0 to 1000, not \(cap)")
        }
        var events = [Event(kind: .purchase, number: 0, date: start)]
        for number in stride(from: 1, through: cap, by: 1) {
            events.append(Event(kind: .renewal, number: number, date: start + TimeInterval(number * interval)))
        }
        events.append(Event(kind: .expiration, number: cap + 1, date: start + TimeInterval((cap + 1) * interval)))
        return Schedule(period: period, interval: interval, events: events)
    }

    private struct File: Decodable {
        var source: String
        var note: String
        var renewalCap: Int
        var renewalSeconds: [String: Int]

        private enum CodingKeys: String, CodingKey {
            case source, note
            case renewalCap = "renewal_cap"
            case renewalSeconds = "renewal_seconds"
        }
    }

    private static let data: File = {
        do {
            return try JSONDecoder().decode(File.self, from: Data(EmbeddedData.sandboxRenewals.utf8))
        } catch {
            // The file is compiled in and checked by the tests; an unreadable one schedules nothing.
            return File(source: "Data/sandbox-renewals.json cannot be read: \(error)", note: "", renewalCap: 0, renewalSeconds: [:])
        }
    }()
}
