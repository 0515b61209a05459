import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StorePrice
import Synchronization

/// GET requests to the Google Play Developer API with a service account's access token, many at
/// once.
///
/// The token is asked for once (a POST of the signed assertion to the key's `token_uri`) and
/// again when it has less than five minutes left. A `429` or a `5xx` is retried up to five times,
/// after its `Retry-After` (at most 60 seconds) or 1, 2, 4, 8 and 16 seconds; any other error is
/// Google's `status` and `message` in one line. Redirects are not followed, so the token never
/// goes anywhere else.
final class PlayClient: Sendable {
    /// `https://androidpublisher.googleapis.com`, or a stand-in's address in tests.
    let baseURL: String
    let account: PlayServiceAccount
    let timeout: TimeAmount = .seconds(60)
    let longestRetryWait = 60
    let retries = 5
    private let http: HTTPClient
    private let token = Mutex<(value: String, expires: Date)?>(nil)
    /// The requests of this run.
    let usage = Mutex(Usage())
    static let largestResponse = 64 << 20

    struct Usage: Sendable {
        var requests = 0
        var inFlight = 0
        var mostInFlight = 0
        var retried = 0
    }

    /// An answer that is not a page: a store API's failure, status 69, as App Store Connect's.
    typealias Failure = AppStoreConnectClient.Failure

    init(baseURL: String, account: PlayServiceAccount, concurrency: Int) {
        self.baseURL = baseURL
        self.account = account
        http = AppStoreConnectClient.httpClient(concurrency: concurrency)
    }

    func shutdown() async {
        try? await http.shutdown()
    }

    /// An access token with at least five minutes left.
    func accessToken() async throws -> String {
        if let (value, expires) = token.withLock({ $0 }), expires.timeIntervalSinceNow > 300 { return value }
        var request = HTTPClientRequest(url: account.tokenURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let assertion = try account.assertion()
        request.body = .bytes(ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion))
        let (status, _, body) = try await send(request, what: "Google's token endpoint \(AppStoreConnectClient.whole(account.tokenURL))")
        struct Answer: Decodable {
            var access_token: String?
            var expires_in: Int?
            var error: String?
            var error_description: String?
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: Data(body))
        guard (200..<300).contains(status.code), let value = answer?.access_token else {
            let error = [answer?.error, answer?.error_description].compactMap { $0 }.map(AppStoreConnectClient.whole).joined(separator: ": ")
            throw Failure(
                description: "Google's token endpoint refused the service account \(account.email.escapedForMessage) (\(status.code)"
                    + (error.isEmpty ? "" : " \(error)") + "); check that the key is not deleted or disabled in the Google Cloud console")
        }
        let expires = Date().addingTimeInterval(TimeInterval(answer?.expires_in ?? 3600))
        token.withLock { $0 = (value, expires) }
        return value
    }

    /// The body of a GET of `path` (from the base URL), after any retries.
    func get(_ path: String) async throws -> [UInt8] {
        var attempt = 0
        while true {
            attempt += 1
            var request = HTTPClientRequest(url: baseURL + path)
            request.method = .GET
            request.headers.add(name: "Authorization", value: "Bearer " + (try await accessToken()))
            request.headers.add(name: "Accept", value: "application/json")
            let (status, headers, body) = try await send(request, what: "Google Play at \(AppStoreConnectClient.whole(baseURL)) (GET \(AppStoreConnectClient.whole(path)))")
            if status == .tooManyRequests || (500..<600).contains(status.code), attempt <= retries {
                let given = headers.first(name: "Retry-After")
                let wait = AppStoreConnectClient.retryAfter(given) ?? (1 << (attempt - 1))
                guard wait <= longestRetryWait else {
                    throw Failure(
                        description: "Google Play asks to wait \(wait) s (\(status.code) for GET \(AppStoreConnectClient.whole(path))), longer than "
                            + "\(longestRetryWait) s; try again later")
                }
                Console.error("note: Google Play answered \(status.code) for GET \(AppStoreConnectClient.whole(path)); retrying in \(wait) s")
                usage.withLock { $0.retried += 1 }
                try await Task.sleep(for: .seconds(wait))
                continue
            }
            guard (200..<300).contains(status.code) else {
                throw Failure(description: Self.describe(status: status, body: body, path: path))
            }
            return body
        }
    }

    private func send(_ request: HTTPClientRequest, what: String) async throws -> (HTTPResponseStatus, HTTPHeaders, [UInt8]) {
        usage.withLock { usage in
            usage.requests += 1
            usage.inFlight += 1
            usage.mostInFlight = max(usage.mostInFlight, usage.inFlight)
        }
        defer { usage.withLock { $0.inFlight -= 1 } }
        do {
            let response = try await http.execute(request, timeout: timeout)
            let body = Array(buffer: try await response.body.collect(upTo: Self.largestResponse))
            return (response.status, response.headers, body)
        } catch is NIOTooManyBytesError {
            throw Failure(description: "the answer of \(what) is larger than 64 MiB; stopped")
        } catch {
            throw Failure(description: "cannot reach \(what): \(AppStoreConnectClient.reason(error))")
        }
    }

    /// Google's error in one line: `403 PERMISSION_DENIED: The caller does not have permission`,
    /// with a hint where the cause is usual.
    static func describe(status: HTTPResponseStatus, body: [UInt8], path: String) -> String {
        var words = "Google Play answered \(status.code) to GET \(AppStoreConnectClient.whole(path))"
        struct Answer: Decodable {
            struct Error: Decodable {
                var message: String?
                var status: String?
            }
            var error: Error?
        }
        if let error = (try? JSONDecoder().decode(Answer.self, from: Data(body)))?.error {
            words += ": " + [error.status, error.message].compactMap { $0 }.map(AppStoreConnectClient.whole).joined(separator: ": ")
        } else {
            words += " (\(status.reasonPhrase.escapedForMessage))"
        }
        switch status.code {
        case 401, 403:
            words += "; invite the service account in the Play Console (Users and permissions) with the right to view app information"
        case 404:
            words += "; check the package name, as the Play Console shows it"
        default: break
        }
        return words
    }
}
