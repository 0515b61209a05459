import Hummingbird
import Logging

/// One access-log line and the request metrics for each request, once its response has been
/// written to its end (a streamed render included): method, path, status and duration, at
/// `info`, to the request's logger (which carries Hummingbird's `hb.request.id`).
///
/// ```
/// 2026-12-07T16:00:00.123Z info request method=GET path=/v1/products/com.example.pro.yearly status=200 duration_ms=0.412 hb.request.id=…
/// ```
///
/// A request the router has no route for is counted under the route `NotFound` (Hummingbird's
/// name), so that a client cannot make a metric for each path it makes up.
struct ObservabilityMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        do {
            var response = try await next(request, context)
            let status = response.status
            // A HEAD's body is dropped unwritten, after this.
            guard request.method != .head else {
                record(request, context: context, status: status, duration: ContinuousClock.now - started)
                return response
            }
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { record(request, context: context, status: status, duration: ContinuousClock.now - started) }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            record(request, context: context, status: status, duration: ContinuousClock.now - started)
            throw error
        }
    }

    private func record(_ request: Request, context: Context, status: HTTPResponse.Status, duration: Duration) {
        metrics.record(method: request.method, route: context.endpointPath ?? "NotFound", status: status, duration: duration)
        var metadata: Logger.Metadata = [
            "method": "\(request.method.rawValue)", "path": "\(request.uri.path)", "status": .stringConvertible(status.code),
            "duration_ms": "\(CatalogStore.milliseconds(duration))",
        ]
        if let query = request.uri.query, !query.isEmpty { metadata["query"] = "\(query)" }
        context.logger.info("request", metadata: metadata)
    }
}
