import Foundation
import HTTPTypes
import Hummingbird

/// A request the service cannot answer, as a status and a one-line message: `{"error":"…"}`.
struct ServiceError: HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String
    /// Fields the answer carries besides its type: `Allow`, `Retry-After`.
    var headers: HTTPFields = [:]

    /// A 400 with the library's message for a bad value.
    static func badRequest(_ message: String) -> ServiceError {
        ServiceError(status: .badRequest, message: message)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try JSONBody(["error": message]).response(status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

/// A JSON response body with its keys sorted, so that the same answer is the same bytes, and a
/// line break at the end.
struct JSONBody<Value: Encodable & Sendable>: ResponseGenerator {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try response(status: .ok)
    }

    func response(status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var body = try encoder.encode(value)
        body.append(0x0A)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(body.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
