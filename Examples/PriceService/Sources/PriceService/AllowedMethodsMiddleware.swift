import HTTPTypes
import Hummingbird

/// Answers a request for a known path with a method the path does not take: `405 Method Not
/// Allowed` with `Allow`, where the router alone would say `404`. `HEAD` is allowed wherever `GET`
/// is: the router answers it (`.autoGenerateHeadEndpoints`).
struct AllowedMethodsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each route's path and methods.
    let routes: [String: [HTTPRequest.Method]]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let methods = routes[request.uri.path] else { return try await next(request, context) }
        let allowed = methods.contains(.get) ? methods + [.head] : methods
        guard allowed.contains(request.method) else {
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            throw ServiceError(
                status: .methodNotAllowed, message: "\(request.uri.path) takes \(names), not \(request.method.rawValue)",
                headers: [.allow: names])
        }
        return try await next(request, context)
    }
}
