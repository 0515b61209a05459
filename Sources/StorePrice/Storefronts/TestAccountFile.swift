#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A list of sandbox test accounts, loaded from JSON.
///
/// The file is a JSON array with one object per account (or the same objects one per line, as
/// JSON Lines):
///
/// ```json
/// [
///   {"name": "usa", "email": "sandbox+usa@example.com", "storefront": "USA"},
///   {"name": "can-fr", "email": "sandbox+can-fr@example.com", "storefront": "CAN", "store_language": "fr"},
///   {"name": "usa-en-gb-device", "email": "sandbox+gb@example.com", "storefront": "USA", "device_locale": "en_GB"}
/// ]
/// ```
///
/// `name`, `email` and `storefront` (numeric ID, alpha-3 or alpha-2) are required;
/// `store_language`, `device_locale` and `description` are optional. Any other field is refused, and
/// a field that looks like a secret (`password`, `token`, `apiKey`, …) is refused with a reason:
/// an accounts file is shared and committed, so it never holds credentials.
///
/// ```swift
/// let accounts = try TestAccountFile(contentsOfFile: "Tests/accounts.json")
/// for account in accounts.accounts { print(account.priceLocale) }
/// ```
public struct TestAccountFile: Sendable {
    /// Where the accounts came from: a path, or `built-in`.
    public let source: String
    /// The accounts, in file order.
    public let accounts: [TestAccount]

    /// The built-in accounts: one tester per storefront, plus testers whose store language or
    /// device locale differs (`usa-en-gb-device`, `can-fr`, `jpn-en-device`, …).
    public static var builtIn: TestAccountFile { BuiltInAccounts.shared.file }

    /// Loads accounts from a JSON file.
    ///
    /// - Throws: ``StorePriceError/unreadableFile(path:reason:)`` when the file cannot be read;
    ///   ``StorePriceError/invalidAccounts(source:entry:name:reason:)`` naming the entry and field.
    public init(contentsOfFile path: String) throws(StorePriceError) {
        try self.init(data: Data(InputFile(path: path).readAll()), source: path)
    }

    /// Loads accounts from JSON data.
    ///
    /// - Parameters:
    ///   - data: the JSON.
    ///   - source: how errors name the data, such as its path.
    public init(data: Data, source: String) throws(StorePriceError) {
        var entries: [[String: FieldValue]] = []
        if let problem = JSONText.problem(in: Array(data)) {
            throw .invalidAccounts(
                source: source, entry: nil, name: nil, reason: problem)
        }
        if data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") {
            // JSON Lines, as `storeprice accounts --format jsonl` writes: one object per line.
            for (offset, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
            where line.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) {
                do {
                    entries.append(try JSONDecoder().decode([String: FieldValue].self, from: Data(line)))
                } catch {
                    throw .invalidAccounts(
                        source: source, entry: nil, name: nil,
                        reason: "line \(offset + 1) is not an account object (\(Self.reason(error)))")
                }
            }
        } else {
            do {
                entries = try JSONDecoder().decode([[String: FieldValue]].self, from: data)
            } catch {
                throw .invalidAccounts(
                    source: source, entry: nil, name: nil,
                    reason: "expected a JSON array of account objects, or one object per line (\(Self.reason(error)))")
            }
        }
        if let repeated = JSONDuplicateKeys.firstRepeatedKey(in: String(decoding: data, as: UTF8.self)) {
            throw .invalidAccounts(
                source: source, entry: nil, name: nil,
                reason: JSONDuplicateKeys.reason(naming: repeated))
        }
        // An empty list would render nothing and call every product invalid.
        guard !entries.isEmpty else {
            throw .invalidAccounts(source: source, entry: nil, name: nil, reason: "no accounts; an accounts file lists at least one")
        }
        var accounts: [TestAccount] = []
        var names: [String: Int] = [:]
        var emails: [String: Int] = [:]
        for (offset, fields) in entries.enumerated() {
            let entry = offset + 1
            let account = try Self.account(from: fields, entry: entry, source: source)
            if let first = names[account.name] {
                throw .invalidAccounts(
                    source: source, entry: entry, name: account.name, reason: "duplicate name; entry \(first) has it too")
            }
            if let first = emails[account.email.lowercased()] {
                throw .invalidAccounts(
                    source: source, entry: entry, name: account.name,
                    reason: "duplicate email '\(account.email.escapedForMessage)'; entry \(first) has it too")
            }
            names[account.name] = entry
            emails[account.email.lowercased()] = entry
            accounts.append(account)
        }
        self.source = source
        self.accounts = accounts
    }

    /// The account with this name.
    ///
    /// - Throws: ``StorePriceError/unknownAccount(_:source:suggestions:)`` with the closest names.
    public func account(named name: String) throws(StorePriceError) -> TestAccount {
        if let account = accounts.first(where: { $0.name == name }) { return account }
        throw .unknownAccount(name, source: source, suggestions: closestMatches(to: name, in: accounts.map(\.name)))
    }

    // MARK: Fields

    static let knownFields: Set<String> = ["name", "email", "storefront", "store_language", "device_locale", "description"]
    static let secretWords = ["password", "passwd", "passcode", "secret", "token", "apikey", "privatekey", "credential"]

    private static func account(from fields: [String: FieldValue], entry: Int, source: String)
        throws(StorePriceError) -> TestAccount
    {
        let name = fields["name"]?.string
        for key in fields.keys.sorted() {
            let folded = key.lowercased().filter { $0 != "_" && $0 != "-" }
            if secretWords.contains(where: { folded.contains($0) }) {
                throw .invalidAccounts(
                    source: source, entry: entry, name: name,
                    reason: "has a '\(key.escapedForMessage)' field; an accounts file never holds passwords or other secrets "
                        + "(keep them in a keychain or your CI's secret store)")
            }
            if RenamedFields.accounts[key] != nil {
                // Every old name of the entry at once, so that one edit fixes the file.
                let old = fields.keys.filter { RenamedFields.accounts[$0] != nil }.sorted()
                let note = RenamedFields.note(old, in: RenamedFields.accounts) ?? ""
                let quoted = old.map { "'\($0)'" }.joined(separator: ", ")
                throw .invalidAccounts(
                    source: source, entry: entry, name: name,
                    reason: "unknown field\(old.count == 1 ? "" : "s") \(quoted); \(note)")
            }
            guard knownFields.contains(key) else {
                throw .invalidAccounts(
                    source: source, entry: entry, name: name,
                    reason: "unknown field '\(key.escapedForMessage)'; fields are \(knownFields.sorted().joined(separator: ", "))")
            }
            guard fields[key]?.string != nil || fields[key] == .null && !["name", "email", "storefront"].contains(key) else {
                throw .invalidAccounts(source: source, entry: entry, name: name, reason: "'\(key.escapedForMessage)' must be a string")
            }
        }
        func required(_ key: String) throws(StorePriceError) -> String {
            guard let value = fields[key]?.string, !value.isEmpty else {
                throw .invalidAccounts(source: source, entry: entry, name: name, reason: "missing '\(key.escapedForMessage)'")
            }
            return value
        }
        for key in ["store_language", "device_locale"] where fields[key]?.string == "" {
            throw .invalidAccounts(
                source: source, entry: entry, name: name,
                reason: "'\(key)' is empty; leave it out, or give a language such as \(key == "store_language" ? "fr" : "en_GB")")
        }
        let accountName = try required("name")
        let email = try required("email")
        let storefrontCode = try required("storefront")
        do {
            return try TestAccount(
                name: accountName,
                email: email,
                storefront: Storefront(storefrontCode),
                storeLanguage: fields["store_language"]?.string,
                deviceLocale: fields["device_locale"]?.string,
                summary: fields["description"]?.string)
        } catch {
            let reason: String
            switch error {
            case .invalidAccounts(_, _, _, let inner): reason = inner
            default: reason = error.description
            }
            throw .invalidAccounts(source: source, entry: entry, name: accountName, reason: reason)
        }
    }

    private static func reason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "got \(jsonValueFound(context))"
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context):
            return context.debugDescription
        default:
            return String(describing: error)
        }
    }
}

/// One value of an accounts-file field: StorePrice reads strings only, but sees every key.
enum FieldValue: Decodable, Hashable {
    case string(String)
    case null
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else {
            self = .other
        }
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// The built-in accounts, decoded once from the embedded copy of `Data/test-accounts.json`.
final class BuiltInAccounts: Sendable {
    static let shared = BuiltInAccounts()
    let file: TestAccountFile

    private init() {
        do {
            file = try TestAccountFile(data: Data(EmbeddedData.testAccounts.utf8), source: "built-in")
        } catch {
            // Checked by TestAccountTests; reaching this means the running ICU lacks a locale.
            fatalError("StorePrice's built-in test accounts do not load with ICU \(VersionInfo.icu): \(error)")
        }
    }
}
