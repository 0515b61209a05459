import Hummingbird
import NIOCore
import StorePrice

/// The price service's routes, on one router:
///
/// - `GET /v1/price?storefront=JPN&amount=1200`: one price, as JSON (also `account=` or `locale=`
///   in place of `storefront=`, `language=` with `storefront=`, `period=`, `style=`);
/// - `POST /v1/render?storefronts=USA,JPN` (or `accounts=jpn,usa`): a JSON Lines (or CSV, with
///   `Content-Type: text/csv`) catalog in the body, at most ``PriceService/bodyLimit`` bytes, to
///   the JSON Lines rows `storeprice render` writes, streamed as they are rendered;
/// - `GET /v1/storefronts`: the storefront table.
///
/// A bad value is a 400 whose body is `{"error":"…"}`, the library's one-line message.
public enum PriceService {
    /// The largest catalog `POST /v1/render` reads; a larger body is a 413.
    public static let bodyLimit = 8 << 20

    /// The router with every route.
    public static func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/v1/price") { request, _ in
            JSONBody(try PriceQuery(request.uri.queryParameters).response())
        }
        router.post("/v1/render") { request, context -> Response in
            let query = try RenderQuery(request.uri.queryParameters, contentType: request.headers[.contentType])
            let body: ByteBuffer
            do {
                body = try await request.body.collect(upTo: bodyLimit)
            } catch is NIOTooManyBytesError {
                throw ServiceError(
                    status: .contentTooLarge,
                    message: "the catalog is larger than \(bodyLimit >> 20) MiB; render a larger one with the storeprice CLI")
            }
            return try await query.response(catalog: Array(buffer: body), logger: context.logger)
        }
        router.get("/v1/render") { _, _ -> Response in
            throw ServiceError(status: .methodNotAllowed, message: "POST a catalog to /v1/render")
        }
        router.get("/v1/storefronts") { _, _ in
            JSONBody(Storefront.all.map(\.details))
        }
        return router
    }

    /// The application, listening on `host` and `port`.
    public static func application(host: String = "127.0.0.1", port: Int) -> some ApplicationProtocol {
        Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "StorePrice PriceService"))
    }
}
