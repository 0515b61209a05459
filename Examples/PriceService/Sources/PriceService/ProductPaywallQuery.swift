import Hummingbird
import StorePrice

/// `GET /v1/products/{productID}/paywall?storefront=USA&compare={otherProductID}`: the paywall of
/// a subscription of the served catalog where a storefront or test account shows it: its price,
/// period and introductory offer there, savings against another product of the catalog, and
/// the lines the app's templates (`TEMPLATES`) and StorePrice's have for it.
struct ProductPaywallQuery {
    let product: ProductQuery
    let compare: String?
    let name: String?
    let template: String?
    let offerStart: String?

    /// The parameters the route takes, to name in messages.
    static let parameters = ProductQuery.parameters + ["compare", "name", "template", "offer_start"]
    static let route = "/v1/products/{productID}/paywall"

    init(_ query: Hummingbird.Parameters) throws {
        let parameters = try QueryParameters(query, route: Self.route, allowed: Self.parameters)
        product = try ProductQuery(parameters)
        compare = parameters["compare"]
        name = parameters["name"]
        template = parameters["template"]
        offerStart = parameters["offer_start"]
        if template != nil && name != nil {
            throw ServiceError.badRequest("give name= (a line) or template=, not both")
        }
    }

    /// The paywall's arguments and lines, or a `404` naming a product the catalog lacks or one
    /// not sold here, or a `400` for a product that is no subscription.
    func response(for id: String, in catalog: ServedCatalog) throws -> PaywallResponse {
        let (target, settings) = try product.resolved(for: catalog)
        let subscription = try ProductQuery.product(id, in: catalog)
        guard subscription.subscription != nil else {
            throw ServiceError(
                status: .notFound,
                message: "product '\(id.quotedForMessage)' has no paywall: it is not an auto-renewable subscription (it has no period)")
        }
        let compared = try compare.map { (other) throws in
            guard let product = catalog.product(other) else {
                throw ServiceError.badRequest("compare=: unknown product '\(other.quotedForMessage)'; the catalog has no product with that ID")
            }
            return product
        }
        let paywall: Paywall
        do {
            paywall = try Paywall(
                subscription: subscription, for: target, comparedTo: compared, options: settings.options,
                offerStart: try PaywallQuery.day(offerStart), offerWording: catalog.offerWording)
        } catch .invalidProducts {
            throw ServiceError(
                status: .notFound,
                message: "product '\(id.quotedForMessage)' has no price in \(target.storefront.countryCode); it is not sold there")
        } catch {
            throw ServiceError.badRequest(error.description)
        }
        var response = try PaywallResponse(paywall, template: template, name: name, templates: catalog.templates)
        response.product = id
        response.compare = compare
        return response
    }
}
