import Hummingbird
import StorePrice

/// A route's query parameters, checked: each known, given once and not empty.
struct QueryParameters {
    private let values: [String: String]

    init(_ query: Hummingbird.Parameters, route: String, allowed: [String]) throws {
        var values: [String: String] = [:]
        for (key, value) in query {
            let name = String(key)
            guard allowed.contains(name) else {
                throw ServiceError.badRequest(
                    "unknown parameter '\(name)'; \(route) takes \(allowed.joined(separator: ", "))")
            }
            guard values[name] == nil else { throw ServiceError.badRequest("\(name)= is given twice; give it once") }
            guard !value.isEmpty else { throw ServiceError.badRequest("\(name)= is empty") }
            values[name] = String(value)
        }
        self.values = values
    }

    subscript(name: String) -> String? { values[name] }

    /// The price settings `style=` (icu, app-store) and `rounding=` (reject, half-even, half-up)
    /// give, the library's defaults otherwise: every formatter, renderer and paywall of the
    /// request is made from them, so none can show another style.
    ///
    /// For a Google Play catalog's prices (`play`): `style=` play (the default) or icu.
    func settings(play: Bool = false) throws -> PriceSettings {
        var options = PriceFormatter.Options()
        switch (self["style"], play) {
        case (nil, false), ("icu", _): options.style = .icu
        case ("app-store", false): options.style = .appStore
        case (nil, true), ("play", true): options.style = .play
        case ("app-store", true):
            throw ServiceError.badRequest("style=app-store writes the App Store's prices; this catalog is Google Play's: use play or icu")
        case let (other?, true): throw ServiceError.badRequest("unknown style '\(other)'; use play or icu")
        case let (other?, false): throw ServiceError.badRequest("unknown style '\(other)'; use icu or app-store")
        }
        switch self["rounding"] {
        case nil, "reject": options.rounding = .reject
        case "half-even": options.rounding = .halfEven
        case "half-up": options.rounding = .halfUp
        case let other?: throw ServiceError.badRequest("unknown rounding '\(other)'; use reject, half-even or half-up")
        }
        return PriceSettings(options: options)
    }
}
