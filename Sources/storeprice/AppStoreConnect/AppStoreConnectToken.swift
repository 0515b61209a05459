import Crypto
import Foundation
import StorePrice

/// The bearer token App Store Connect requires: a JSON Web Token signed with ES256 (ECDSA on
/// P-256 with SHA-256) by the team's API key, the `.p8` file App Store Connect lets you download
/// once, made anew for each run and valid for 20 minutes, the longest Apple allows.
///
/// The key stays in this value: it is never written to a log, an error message or the output.
struct AppStoreConnectToken: Sendable {
    let keyID: String
    let issuerID: String
    /// The key's raw bytes: Crypto's key type is not `Sendable`, and requests at once each sign.
    private let key: Data

    /// The token's lifetime; Apple refuses tokens that live longer.
    static let lifetime: TimeInterval = 20 * 60

    /// Whether text is an App Store Connect key ID: 10 capital letters and digits.
    static func isKeyID(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    /// Reads the key from a `.p8` file (PEM, `BEGIN PRIVATE KEY`).
    init(keyID: String, issuerID: String, privateKeyFile path: String) throws(StorePriceError) {
        // A key is a small regular file; a FIFO or device would be waited on or read without end.
        if let kind = Catalog.kind(of: path), kind != .file {
            throw .unreadableFile(path: path, reason: "not a regular file; expected the .p8 file App Store Connect gives")
        }
        let bytes = try InputFile(path: path).readAll()
        // The key's text is never quoted: a message says only what kind of file it is not.
        guard let pem = String(bytes: bytes, encoding: .utf8), let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
            throw .unreadableFile(
                path: path,
                reason: "not an App Store Connect API key; expected the .p8 file App Store Connect gives (a P-256 key in PEM, BEGIN PRIVATE KEY)")
        }
        self.keyID = keyID
        self.issuerID = issuerID
        self.key = key.rawRepresentation
    }

    /// The key's PEM text itself, as CI holds it in a secret (`ASC_PRIVATE_KEY`); `source` names
    /// where it came from in the one message a bad key gets, which never quotes it.
    init(keyID: String, issuerID: String, privateKeyPEM pem: String, source: String) throws(Failure) {
        // Secrets stores often keep a multi-line value with its line breaks written \n.
        let text = pem.contains("\\n") && !pem.contains("\n") ? pem.replacingOccurrences(of: "\\n", with: "\n") : pem
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(
                description: "\(source) is not an App Store Connect API key; give the text of the .p8 file App Store Connect "
                    + "gives (a P-256 key in PEM, from -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----)")
        }
        self.keyID = keyID
        self.issuerID = issuerID
        self.key = key.rawRepresentation
    }

    /// A key that cannot be used, said without its text.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A token that is valid from `now` for ``lifetime``.
    func make(now: Date = Date()) throws -> String {
        let issued = Int(now.timeIntervalSince1970)
        let header = #"{"alg":"ES256","kid":"\#(keyID)","typ":"JWT"}"#
        let claims = #"{"iss":"\#(issuerID)","iat":\#(issued),"exp":\#(issued + Int(Self.lifetime)),"aud":"appstoreconnect-v1"}"#
        let signingInput = Self.base64URL(Data(header.utf8)) + "." + Self.base64URL(Data(claims.utf8))
        let signature = try P256.Signing.PrivateKey(rawRepresentation: key).signature(for: Data(signingInput.utf8))
        return signingInput + "." + Self.base64URL(signature.rawRepresentation)
    }

    /// Base64 with the URL alphabet and no padding, as JSON Web Tokens write it.
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
