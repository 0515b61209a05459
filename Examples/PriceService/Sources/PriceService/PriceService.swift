import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import StorePrice
import Synchronization

/// The price service's routes, on one router:
///
/// - `GET /health`: `ok`, for liveness, and the load script's bare baseline;
/// - `GET /ready`: `200` once the catalog (`CATALOG`) is loaded, `503` before, and without one;
/// - `GET /metrics`: the service's metrics in Prometheus's text format (``ServiceMetrics``);
/// - `GET /v1/catalog`: the served catalog: where it came from, its products, when it was loaded;
/// - `GET /v1/products?storefront=JPN`: the rows of every product priced there, a JSON array;
/// - `GET /v1/products/{productID}?storefront=JPN`: that product's row there, as `storeprice render`
///   writes it (also `language=`, or `account=` in place of `storefront=`, `style=`, `rounding=`);
/// - `GET /v1/products/{productID}/paywall?storefront=USA&compare={otherProductID}`: the paywall
///   of a subscription of the catalog, with the app's templates (`TEMPLATES`);
/// - `GET /v1/price?storefront=JPN&amount=1200`: one price, as JSON (also `account=` or `locale=`
///   in place of `storefront=`, `language=` with `storefront=`, `period=`, `style=`);
/// - `POST /v1/render?storefronts=USA,JPN` (or `accounts=jpn,usa`): a JSON Lines (or CSV, with
///   `Content-Type: text/csv`) catalog in the body, at most ``PriceService/bodyLimit`` bytes, to
///   the JSON Lines rows `storeprice render` writes: whole up to ``RenderedRows/wholeRows`` rows,
///   streamed as they are rendered past that;
/// - `GET /v1/paywall?storefront=USA&price=59.99&period=P1Y`: a subscription's paywall
///   arguments and lines, as `storeprice paywall` computes them;
/// - `GET /v1/storefronts` (or `?storefront=JPN`): the storefront table.
///
/// A bad value is a 400 whose body is `{"error":"…"}`, the library's one-line message; a product
/// the catalog lacks, or one not sold in the storefront, is a 404 naming it; a known path asked
/// with another method is a 405 with `Allow`; every `GET` also answers `HEAD`.
public enum PriceService {
    /// The largest catalog `POST /v1/render` reads; a larger body is a 413.
    public static let bodyLimit = 8 << 20

    /// Each route's path and methods.
    static let routes: [String: [HTTPRequest.Method]] = [
        "/health": [.get], "/ready": [.get], "/metrics": [.get], "/v1/price": [.get], "/v1/render": [.post],
        "/v1/paywall": [.get], "/v1/storefronts": [.get], "/v1/catalog": [.get], "/v1/products": [.get],
        "/v1/products/{productID}": [.get], "/v1/products/{productID}/paywall": [.get],
    ]

    /// What the routes serve with: the configuration's limits, the thread pool renders run on,
    /// the served catalog and the metrics.
    public struct Services: Sendable {
        public var configuration: ServiceConfiguration
        public var pool: RenderPool
        public var catalogs: CatalogStore
        public var metrics: ServiceMetrics

        public init(configuration: ServiceConfiguration, pool: RenderPool, catalogs: CatalogStore, metrics: ServiceMetrics) {
            self.configuration = configuration
            self.pool = pool
            self.catalogs = catalogs
            self.metrics = metrics
        }
    }

    /// The router with every route.
    public static func router(_ services: Services) -> Router<BasicRequestContext> {
        let (configuration, pool, catalogs, metrics) = (services.configuration, services.pool, services.catalogs, services.metrics)
        // HEAD for every GET: the GET's status and fields, without its body.
        let router = Router(options: .autoGenerateHeadEndpoints)
        // One access-log line per request at info, once its response is written; LOG_LEVEL=notice leaves it out.
        router.add(middleware: ObservabilityMiddleware(metrics: metrics))
        router.add(middleware: AllowedMethodsMiddleware(routes: routes))
        router.get("/health") { request, _ in
            _ = try QueryParameters(request.uri.queryParameters, route: "/health", allowed: [])
            return "ok\n"
        }
        router.get("/ready") { request, _ -> Response in
            _ = try QueryParameters(request.uri.queryParameters, route: "/ready", allowed: [])
            guard catalogs.isReady else {
                let reason = catalogs.configuration == nil ? "no catalog: CATALOG is not set" : "the catalog is loading"
                return Response(
                    status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "not ready: \(reason)\n")))
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
        }
        router.get("/metrics") { request, _ -> Response in
            _ = try QueryParameters(request.uri.queryParameters, route: "/metrics", allowed: [])
            let text = metrics.exposition(rendersInFlight: pool.renders)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .contentLength: "\(text.count)"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.get("/v1/catalog") { request, _ in
            _ = try QueryParameters(request.uri.queryParameters, route: "/v1/catalog", allowed: [])
            return JSONBody(CatalogInfo(try ProductQuery.catalog(catalogs)))
        }
        router.get("/v1/products") { request, context -> Response in
            let query = try ProductQuery(request.uri.queryParameters, route: "/v1/products")
            return try await query.rows(in: try ProductQuery.catalog(catalogs), pool: pool, logger: context.logger)
        }
        router.get("/v1/products/{productID}") { request, context -> Response in
            let query = try ProductQuery(request.uri.queryParameters, route: "/v1/products/{productID}")
            let id = try context.parameters.require("productID")
            return try query.row(of: id, in: try ProductQuery.catalog(catalogs))
        }
        router.get("/v1/products/{productID}/paywall") { request, context in
            let query = try ProductPaywallQuery(request.uri.queryParameters)
            let id = try context.parameters.require("productID")
            return JSONBody(try query.response(for: id, in: try ProductQuery.catalog(catalogs)))
        }
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

    /// The application: listening where `configuration` says, serving the catalog it names, its
    /// renders on a pool of their own, a connection closed when its client takes no byte for the
    /// write timeout, and graceful shutdown on SIGTERM and SIGINT. It logs one line when it
    /// listens, naming the ICU its strings come from.
    public static func application(
        configuration: ServiceConfiguration = .init(), logger: Logger? = nil, metrics: ServiceMetrics = ServiceMetrics(),
        catalogs: CatalogStore? = nil
    ) -> some ApplicationProtocol {
        var logger = logger ?? Logger(label: "PriceService")
        logger.logLevel = configuration.logLevel
        let pool = RenderPool(limit: configuration.maxRenders)
        let catalogs = catalogs ?? CatalogStore(configuration: configuration.catalog, logger: logger, metrics: metrics)
        let services = Services(configuration: configuration, pool: pool, catalogs: catalogs, metrics: metrics)
        return Application(
            router: router(services),
            server: PriceServiceChannel.server(writeTimeout: configuration.writeTimeout, headTimeout: configuration.headTimeout),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "StorePrice PriceService"),
            services: [pool, catalogs],
            onServerRunning: { [logger] channel in
                let address = channel.localAddress.map { "\($0.ipAddress ?? configuration.host):\($0.port ?? configuration.port)" }
                    ?? "\(configuration.host):\(configuration.port)"
                let line = "PriceService listening on \(address), StorePrice \(VersionInfo.current), ICU \(VersionInfo.icu) (CLDR \(VersionInfo.cldr))"
                logger.notice(
                    "\(line)",
                    metadata: configuration.catalog.map { ["catalog": "\($0.path)"] } ?? ["catalog": "none"])
            },
            logger: logger)
    }

    /// Serves until SIGTERM or SIGINT, then lets the requests under way finish; nil then, or the
    /// error that stopped the service, in one line (a catalog it cannot serve, a port in use, an
    /// address it cannot bind).
    public static func serve(
        _ configuration: ServiceConfiguration, logger: Logger? = nil, metrics: ServiceMetrics = ServiceMetrics()
    ) async -> String? {
        do {
            try await application(configuration: configuration, logger: logger, metrics: metrics).runService()
            return nil
        } catch let failure as ServedCatalog.LoadFailure {
            return failure.description
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            return "\(configuration.host):\(configuration.port) is in use; stop what listens there or set PORT to another port"
        } catch let error as IOError {
            return "cannot listen on \(configuration.host):\(configuration.port): \(String(cString: strerror(error.errnoCode)))"
        } catch is SocketAddressError, is SocketAddressError.UnknownHost {
            return "HOST '\(configuration.host.quotedForMessage)' is no address this machine has or a name it can resolve; "
                + "give one such as 127.0.0.1 or 0.0.0.0"
        } catch {
            // Words, not a Swift value: what else stops a server here is its address.
            return "cannot listen on \(configuration.host.quotedForMessage):\(configuration.port); check HOST and PORT"
        }
    }
}
