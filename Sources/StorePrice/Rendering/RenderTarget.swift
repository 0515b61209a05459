/// Who a catalog is rendered for: a storefront, or a test account (which names its storefront).
///
/// Targets are shared by reference between the rows rendered for them.
public final class RenderTarget: Sendable, CustomStringConvertible {
    /// The storefront whose prices are shown.
    public let storefront: Storefront
    /// The test account, when rendering for accounts.
    public let account: TestAccount?
    /// The price locale prices are shown in.
    public let priceLocale: PriceLocale
    /// The title chain, made on first use: it asks ICU for likely subtags (about 20,000
    /// instructions a target), which only catalogs with titles need.
    private let chain = Locked<TitleChain?>(nil)

    /// A storefront, in its default price locale.
    public init(storefront: Storefront) {
        self.storefront = storefront
        self.account = nil
        self.priceLocale = storefront.priceLocale
    }

    /// A storefront in another of its store languages: `CAN` in `fr` shows `fr_CA@currency=CAD`.
    ///
    /// - Throws: ``StorePriceError/unsupportedLocale(_:reason:)`` for a language ICU has no data
    ///   for, as ``Storefront/priceLocale(language:)`` does.
    public init(storefront: Storefront, language: String) throws(StorePriceError) {
        self.storefront = storefront
        self.account = nil
        self.priceLocale = try storefront.priceLocale(language: language)
    }

    /// A test account, in its store's price locale.
    public init(account: TestAccount) {
        self.storefront = account.storefront
        self.account = account
        self.priceLocale = account.priceLocale
    }

    /// The languages a product's title is looked up in, for this target's price locale.
    var titleChain: TitleChain {
        chain.withLock { chain in
            if let chain { return chain }
            let made = TitleChain(priceLocale: priceLocale)
            chain = made
            return made
        }
    }

    /// One target per storefront.
    public static func storefronts(_ storefronts: [Storefront]) -> [RenderTarget] {
        storefronts.map(RenderTarget.init(storefront:))
    }

    /// One target per test account.
    public static func accounts(_ accounts: [TestAccount]) -> [RenderTarget] {
        accounts.map(RenderTarget.init(account:))
    }

    /// `JPN`, or an account with its storefront: `can-fr (CAN)`.
    public var description: String { account.map { "\($0.name) (\(storefront.countryCode))" } ?? storefront.countryCode }
}

