import HTTPTypes
import Hummingbird

/// Answers a request for a known path with a method the path does not take: `405 Method Not
/// Allowed` with `Allow`, where the router alone would say `404`. `HEAD` is allowed wherever `GET`
/// is: the router answers it (`.autoGenerateHeadEndpoints`).
struct AllowedMethodsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each route's path and methods; a segment written `{name}` matches any one segment.
    let routes: [String: [HTTPRequest.Method]]

    /// The methods of the route a path is, if any.
    func methods(of path: String) -> [HTTPRequest.Method]? {
        if let methods = routes[path] { return methods }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return routes.first { pattern, _ in
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == segments.count
                && zip(parts, segments).allSatisfy { part, segment in part == segment || (part.first == "{" && !segment.isEmpty) }
        }?.value
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let methods = methods(of: request.uri.path) else { return try await next(request, context) }
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
