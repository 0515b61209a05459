import _CryptoExtras
import Crypto
import Foundation
import StorePrice

/// A Google Cloud service account's key, as the Cloud console downloads it (a JSON file with
/// `type` `service_account`), and the assertions it signs: OAuth 2.0's JWT bearer grant
/// (RFC 7523), RS256, for the `androidpublisher` scope, valid for an hour, the longest Google
/// takes, exchanged at the key's `token_uri` for an access token.
///
/// The key stays in this value: it is never written to a log, an error message or the output.
struct PlayServiceAccount: Sendable {
    let email: String
    let keyID: String?
    let tokenURL: String
    /// The key in DER: Crypto's key type is not `Sendable`.
    private let key: Data

    static let scope = "https://www.googleapis.com/auth/androidpublisher"

    /// Reads a key file; `source` names it in the one message a bad one gets, which never
    /// quotes the key.
    init(json bytes: [UInt8], source: String) throws(StorePriceError) {
        struct File: Decodable {
            var type: String?
            var client_email: String?
            var private_key: String?
            var private_key_id: String?
            var token_uri: String?
        }
        let hint = "expected a service account's key file (JSON) from the Google Cloud console: IAM & Admin > Service accounts > Keys > Add key"
        guard let file = try? JSONDecoder().decode(File.self, from: Data(bytes)) else {
            throw .unreadableFile(path: source, reason: "not JSON; \(hint)")
        }
        guard file.type == "service_account" else {
            throw .unreadableFile(
                path: source, reason: "its type is \(file.type.map { "'\($0.escapedForMessage)'" } ?? "missing"), not service_account; \(hint)")
        }
        guard let email = file.client_email, !email.isEmpty else {
            throw .unreadableFile(path: source, reason: "no client_email; \(hint)")
        }
        guard let pem = file.private_key, let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw .unreadableFile(path: source, reason: "its private_key is no RSA key in PEM; \(hint)")
        }
        let tokenURL = file.token_uri ?? "https://oauth2.googleapis.com/token"
        if let problem = Self.addressProblem(tokenURL) {
            throw .unreadableFile(path: source, reason: "its token_uri '\(tokenURL.escapedForMessage)' \(problem)")
        }
        self.email = email
        self.keyID = file.private_key_id
        self.tokenURL = tokenURL
        self.key = key.derRepresentation
    }

    /// Why the key's assertions must not go to `url`, or nil: it is https, or http to this
    /// machine's loopback (a stand-in).
    static func addressProblem(_ url: String) -> String? {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host, !host.isEmpty,
            parts.user == nil, parts.password == nil, !url.contains(" ")
        else { return "is not an address such as https://oauth2.googleapis.com/token" }
        let loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            return "must start with https://, or http:// for this machine: the key's assertions must not travel in the clear"
        }
        return nil
    }

    /// A signed assertion valid from `now` for an hour.
    func assertion(now: Date = Date()) throws -> String {
        let issued = Int(now.timeIntervalSince1970)
        let header = #"{"alg":"RS256","typ":"JWT"\#(keyID.map { #","kid":"\#(JSONText.quote($0).dropFirst().dropLast())""# } ?? "")}"#
        let claims = #"{"iss":\#(JSONText.quote(email)),"scope":"\#(Self.scope)","aud":\#(JSONText.quote(tokenURL)),"iat":\#(issued),"exp":\#(issued + 3600)}"#
        let input = AppStoreConnectToken.base64URL(Data(header.utf8)) + "." + AppStoreConnectToken.base64URL(Data(claims.utf8))
        let signature = try _RSA.Signing.PrivateKey(derRepresentation: key)
            .signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + AppStoreConnectToken.base64URL(signature.rawRepresentation)
    }
}
