import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import StorePrice
import Synchronization

/// The price service's routes, on one router:
///
/// - `GET /health`: `ok`, a bare route, for load balancers and as the load script's baseline;
/// - `GET /v1/price?storefront=JPN&amount=1200`: one price, as JSON (also `account=` or `locale=`
///   in place of `storefront=`, `language=` with `storefront=`, `period=`, `style=`);
/// - `POST /v1/render?storefronts=USA,JPN` (or `accounts=jpn,usa`): a JSON Lines (or CSV, with
///   `Content-Type: text/csv`) catalog in the body, at most ``PriceService/bodyLimit`` bytes, to
///   the JSON Lines rows `storeprice render` writes: whole up to ``RenderQuery/wholeRows`` rows,
///   streamed as they are rendered past that;
/// - `GET /v1/paywall?storefront=USA&price=59.99&period=P1Y`: a subscription's paywall
///   arguments and lines, as `storeprice paywall` computes them;
/// - `GET /v1/storefronts` (or `?storefront=JPN`): the storefront table.
///
/// A bad value is a 400 whose body is `{"error":"…"}`, the library's one-line message; a known
/// path asked with another method is a 405 with `Allow`; every `GET` also answers `HEAD`.
public enum PriceService {
    /// The largest catalog `POST /v1/render` reads; a larger body is a 413.
    public static let bodyLimit = 8 << 20

    /// Each route's path and methods.
    static let routes: [String: [HTTPRequest.Method]] = [
        "/health": [.get], "/v1/price": [.get], "/v1/render": [.post], "/v1/paywall": [.get], "/v1/storefronts": [.get],
    ]

    /// The router with every route, its renders on `pool`.
    public static func router(
        configuration: ServiceConfiguration = .init(), pool: RenderPool
    ) -> Router<BasicRequestContext> {
        // HEAD for every GET: the GET's status and fields, without its body.
        let router = Router(options: .autoGenerateHeadEndpoints)
        // One line per request, at info: LOG_LEVEL=notice leaves it out.
        router.add(middleware: LogRequestsMiddleware(.info))
        router.add(middleware: AllowedMethodsMiddleware(routes: routes))
        router.get("/health") { _, _ in "ok\n" }
        router.get("/v1/price") { request, _ in
            JSONBody(try PriceQuery(request.uri.queryParameters).response())
        }
        router.post("/v1/render") { request, context -> Response in
            let query = try RenderQuery(request.uri.queryParameters, headers: request.headers)
            let body = try await Self.collect(request.body, timeout: configuration.bodyTimeout)
            return try await query.response(catalog: body, pool: pool, logger: context.logger)
        }
        router.get("/v1/paywall") { request, _ in
            JSONBody(try PaywallQuery(request.uri.queryParameters).response())
        }
        router.get("/v1/storefronts") { request, _ in
            let parameters = try QueryParameters(request.uri.queryParameters, route: "/v1/storefronts", allowed: ["storefront"])
            guard let code = parameters["storefront"] else { return JSONBody(Storefront.all.map(\.details)) }
            do throws(StorePriceError) {
                return JSONBody([try Storefront(code).details])
            } catch {
                throw ServiceError.badRequest(error.description)
            }
        }
        return router
    }

    /// A request's body, up to ``bodyLimit`` bytes and within `timeout`: past the limit a 413,
    /// past the time a 408 (``BodyDeadlines`` cancels the read).
    static func collect(_ body: RequestBody, timeout: Duration) async throws -> [UInt8] {
        let reading = Task { Array(buffer: try await body.collect(upTo: bodyLimit)) }
        let expired = Atomic<Bool>(false)
        let deadline = BodyDeadlines.shared.add(.now + timeout) {
            expired.store(true, ordering: .relaxed)
            reading.cancel()
        }
        defer { BodyDeadlines.shared.remove(deadline) }
        do {
            return try await withTaskCancellationHandler {
                try await reading.value
            } onCancel: {
                reading.cancel()
            }
        } catch is NIOTooManyBytesError {
            throw ServiceError(
                status: .contentTooLarge,
                message: "the catalog is larger than \(bodyLimit >> 20) MiB; render a larger one with the storeprice CLI")
        } catch where expired.load(ordering: .relaxed) {
            throw ServiceError(
                status: .requestTimeout,
                message: "the catalog took longer than \(timeout.components.seconds) s to arrive; send it at once",
                headers: [.connection: "close"])
        }
    }

    /// The application: listening where `configuration` says, its renders on a pool of their
    /// own, a connection closed when its client takes no byte for the write timeout, and
    /// graceful shutdown on SIGTERM and SIGINT.
    public static func application(
        configuration: ServiceConfiguration = .init(), logger: Logger? = nil
    ) -> some ApplicationProtocol {
        var logger = logger ?? Logger(label: "PriceService")
        logger.logLevel = configuration.logLevel
        let pool = RenderPool(limit: configuration.maxRenders)
        return Application(
            router: router(configuration: configuration, pool: pool),
            server: PriceServiceChannel.server(writeTimeout: configuration.writeTimeout),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "StorePrice PriceService"),
            services: [pool],
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then lets the requests under way finish; nil then, or the
    /// error that stopped the service, in one line (a port in use, an address it cannot bind).
    public static func serve(_ configuration: ServiceConfiguration, logger: Logger? = nil) async -> String? {
        do {
            try await application(configuration: configuration, logger: logger).runService()
            return nil
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            return "\(configuration.host):\(configuration.port) is in use; stop what listens there or set PORT to another port"
        } catch let error as IOError {
            return "cannot listen on \(configuration.host):\(configuration.port): \(String(cString: strerror(error.errnoCode)))"
        } catch {
            return "cannot serve on \(configuration.host):\(configuration.port): \(error)"
        }
    }
}
