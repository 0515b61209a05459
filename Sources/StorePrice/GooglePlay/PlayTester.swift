import FoundationEssentials

/// A Google Play licence tester: a Google account whose Play country is a region, on a device in
/// a language. The region fixes the currency; the device language decides how Play writes it.
///
/// The built-in testers (`Data/play-testers.json`) are one per region, with the region's default
/// language, plus testers whose device is in another language (`play-ru-en`, `play-us-ko`, …).
///
/// ```swift
/// let tester = try PlayTester.named("play-ru-en")
/// tester.priceLocale.identifier                                             // "en_RU@currency=RUB"
/// try PriceFormatter(locale: tester.priceLocale).format(amount: "0.99")    // "RUB 0.99"
/// ```
public struct PlayTester: Hashable, Sendable, CustomStringConvertible {
    /// A short unique name: lower-case letters, digits, `-`, `_` and `.`, such as `play-ru-en`.
    public let name: String
    /// The Google account's email address, as the Play Console's licence testers list it.
    public let email: String
    /// The tester's Play country, which fixes the currency.
    public let region: PlayRegion
    /// The device's language, when it is not the region's default, such as `en`.
    public let deviceLanguage: String?
    /// What the tester is for, in a sentence.
    public let summary: String?
    /// The price locale Play shows the tester's prices in.
    public let priceLocale: PriceLocale

    /// Creates a tester, checking every field.
    ///
    /// - Throws: ``StorePriceError`` naming the bad field: a malformed name or email, a language
    ///   ICU has no data for.
    public init(
        name: String, email: String, region: PlayRegion, deviceLanguage: String? = nil, summary: String? = nil
    ) throws(StorePriceError) {
        try TestAccount.check(name: name, email: email, source: "Play tester")
        self.name = name
        self.email = email
        self.region = region
        self.deviceLanguage = deviceLanguage
        self.summary = summary
        self.priceLocale = try region.priceLocale(language: deviceLanguage)
    }

    /// The built-in Play testers, in file order.
    public static var builtIn: [PlayTester] { PlayTesterTable.shared.all }

    /// The built-in tester with this name.
    ///
    /// - Throws: ``StorePriceError/unknownAccount(_:source:suggestions:)`` with the closest names.
    public static func named(_ name: String) throws(StorePriceError) -> PlayTester {
        if let found = PlayTesterTable.shared.byName[name] { return found }
        throw .unknownAccount(name, source: "built-in Play testers", suggestions: closestMatches(to: name, in: builtIn.map(\.name)))
    }

    /// The tester as a test account of its region's storefront (``PlayRegion/storefront``), as
    /// Play catalogs are rendered for testers: the same name, email, language and price locale.
    ///
    /// ```swift
    /// let targets = RenderTarget.accounts(PlayTester.builtIn.map(\.account))
    /// ```
    public var account: TestAccount {
        // Every language is a Play region's, and the name and email were checked: it cannot fail.
        (try? TestAccount(
            name: name, email: email, storefront: region.storefront, storeLanguage: deviceLanguage, summary: summary))
            ?? TestAccount(unchecked: name, email: email, storefront: region.storefront, priceLocale: priceLocale)
    }

    /// `play-ru-en <play+ru-en@example.com> RU en_RU@currency=RUB`.
    public var description: String { "\(name) <\(email)> \(region.code) \(priceLocale)" }
}

/// `Data/play-testers.json`, decoded once.
final class PlayTesterTable: Sendable {
    static let shared = PlayTesterTable()

    let all: [PlayTester]
    let byName: [String: PlayTester]

    private struct Entry: Decodable {
        var name: String
        var email: String
        var region: String
        var device_language: String?
        var description: String?
    }

    private init() {
        do {
            let entries = try JSONDecoder().decode([Entry].self, from: Data(EmbeddedData.playTesters.utf8))
            var testers: [PlayTester] = []
            for entry in entries {
                testers.append(try PlayTester(
                    name: entry.name, email: entry.email, region: PlayRegion(entry.region),
                    deviceLanguage: entry.device_language, summary: entry.description))
            }
            all = testers
            byName = Dictionary(testers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        } catch {
            // Checked by the test suite: a build whose data does not decode is a build defect.
            preconditionFailure("Data/play-testers.json: \(error)")
        }
    }
}
