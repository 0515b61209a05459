/// A sandbox tester: an identity whose store fixes the currency and store language.
///
/// A test account names a storefront, which fixes the currency, and optionally a store language
/// (a Canadian store in French) and a device locale for UI text (a US store on a British-English
/// phone). The price is always shown as the tester's store shows it; the device locale only
/// decides the language and direction of the text around it.
///
/// ```swift
/// let tester = try TestAccountFile.builtIn.account(named: "usa-en-gb-device")
/// tester.priceLocale.identifier                          // "en_US@currency=USD"
/// let price = try PriceFormatter(locale: tester.priceLocale).format(amount: "0.99")  // "$0.99"
/// ```
///
/// Accounts never carry passwords: see ``TestAccountFile``.
public struct TestAccount: Hashable, Sendable, CustomStringConvertible {
    /// A short unique name: lower-case letters, digits, `-`, `_` and `.`, such as `usa-en-gb-device`.
    public let name: String
    /// The sandbox Apple Account's email address.
    public let email: String
    /// The tester's storefront, which fixes the currency.
    public let storefront: Storefront
    /// The store language, when it is not the storefront's default, such as `fr` in Canada.
    public let storeLanguage: String?
    /// The device's locale for UI text, such as `en_GB`, when it differs from the store's.
    public let deviceLocale: String?
    /// What the account is for, in a sentence.
    public let summary: String?
    /// The price locale the tester's store shows prices in.
    public let priceLocale: PriceLocale

    /// Creates a test account, checking every field.
    ///
    /// - Throws: ``StorePriceError`` naming the bad field: an unknown storefront, a language or
    ///   device locale ICU has no data for, a malformed name or email.
    public init(
        name: String,
        email: String,
        storefront: Storefront,
        storeLanguage: String? = nil,
        deviceLocale: String? = nil,
        summary: String? = nil
    ) throws(StorePriceError) {
        try Self.check(name: name, email: email, source: "account")
        self.name = name
        self.email = email
        self.storefront = storefront
        self.storeLanguage = storeLanguage
        self.summary = summary
        self.priceLocale = try storeLanguage.map { (language) throws(StorePriceError) in
            try storefront.priceLocale(language: language)
        } ?? storefront.priceLocale
        // After the language is read as a language: a malformed one is named as such first.
        if let storeLanguage, !storefront.hasStoreLanguage(storeLanguage) {
            throw .invalidAccounts(
                source: "account", entry: nil, name: name,
                reason: "'\(storeLanguage.escapedForMessage)' is not a store language of \(storefront.countryCode), "
                    + "whose store is in \(storefront.storeLanguages.joined(separator: ", "))")
        }
        self.deviceLocale = try deviceLocale.map { (locale) throws(StorePriceError) in
            try LocaleSubtags(parsing: locale, source: locale).identifier
        }
    }

    /// An account from fields already checked, such as a ``PlayTester``'s.
    init(unchecked name: String, email: String, storefront: Storefront, priceLocale: PriceLocale) {
        (self.name, self.email, self.storefront, self.priceLocale) = (name, email, storefront, priceLocale)
        (storeLanguage, deviceLocale, summary) = (nil, nil, nil)
    }

    /// The locale of the device's UI text: the device locale, or else the store's language and region.
    public var uiLocale: String { deviceLocale ?? priceLocale.languageIdentifier }

    /// Places a price, as the tester's store shows it, into a UI string in the device's language.
    ///
    /// ```swift
    /// let tester = try TestAccountFile.builtIn.account(named: "are-en-device")
    /// let price = try PriceFormatter(locale: tester.priceLocale).format(amount: "9.99")
    /// try tester.label("Buy %@", price: price)  // "Buy \u{2068}‏9.99 د.إ.‏\u{2069}"
    /// ```
    ///
    /// See ``PriceLabel/render(_:price:priceLocale:uiLocale:)``.
    public func label(_ template: String, price: String) throws(StorePriceError) -> String {
        try PriceLabel.render(template, price: price, priceLocale: priceLocale, uiLocale: uiLocale)
    }

    /// `usa <sandbox+usa@example.com> USA en_US@currency=USD`.
    public var description: String { "\(name) <\(email)> \(storefront.countryCode) \(priceLocale)" }

    /// Checks a tester's name and email, as every kind of tester has them.
    static func check(name: String, email: String, source: String) throws(StorePriceError) {
        guard isValidName(name) else {
            throw .invalidAccounts(
                source: source, entry: nil, name: name,
                reason: "a name is 1 to 64 lower-case letters, digits, '-', '_' or '.', starting with a letter or digit")
        }
        guard isPlausibleEmail(email) else {
            throw .invalidAccounts(
                source: source, entry: nil, name: name, reason: "'\(email.escapedForMessage)' is not an email address")
        }
    }

    static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first else { return false }
        let isLowerOrDigit: (UInt8) -> Bool = { (0x61...0x7A).contains($0) || $0.isASCIIDigit }
        return isLowerOrDigit(first) && bytes.allSatisfy {
            isLowerOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
    }

    static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, email.utf8.count <= 254 else { return false }
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
            && !email.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 }
    }
}

/// An account encodes as an entry of an accounts file, `{"name":"can-fr","email":
/// "sandbox+can-fr@example.com","storefront":"CAN","store_language":"fr","description":"…"}`, so that an encoded
/// array is an accounts file, and decodes with the same checks as
/// ``init(name:email:storefront:storeLanguage:deviceLocale:summary:)``.
extension TestAccount: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, email, storefront
        case storeLanguage = "store_language"
        case deviceLocale = "device_locale"
        case summary = "description"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                name: container.decode(String.self, forKey: .name), email: container.decode(String.self, forKey: .email),
                storefront: container.decode(Storefront.self, forKey: .storefront),
                storeLanguage: container.decodeIfPresent(String.self, forKey: .storeLanguage),
                deviceLocale: container.decodeIfPresent(String.self, forKey: .deviceLocale),
                summary: container.decodeIfPresent(String.self, forKey: .summary))
        } catch let error as StorePriceError {
            throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath, debugDescription: error.description))
        }
    }
}
