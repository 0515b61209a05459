extension StringProtocol {
    /// The text with ASCII letters upper-cased and every other character unchanged.
    ///
    /// Codes (storefronts, currencies, languages, regions) are ASCII, so they are case-folded
    /// by ASCII rules only: Unicode's rules would map `ı` (dotless i) to `I` and `ſ` (long s) to
    /// `S`, reading `ısr` as Israel's storefront and `uſa` as the United States'.
    func asciiUppercased() -> String {
        String(decoding: utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The text with ASCII letters lower-cased and every other character unchanged.
    func asciiLowercased() -> String {
        String(decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// The text with its first ASCII letter upper-cased and the other ASCII letters lower-cased,
    /// as ISO 15924 script codes are written (`Hant`).
    func asciiTitlecased() -> String {
        let lowered = asciiLowercased()
        return lowered.prefix(1).asciiUppercased() + lowered.dropFirst()
    }
}
