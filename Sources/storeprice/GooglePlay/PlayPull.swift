import Foundation
import StorePrice

/// An app's one-time products, subscriptions and their offers, fetched from the Google Play
/// Developer API as `storeprice play pull` does: the one-time products and the subscriptions,
/// every page, one after another (so that products keep Play's order); then each
/// subscription's offers (`basePlans/-/offers`), at most `concurrency` requests at once.
///
/// Every answer is written to the raw folder as it arrives, named so that the folder is itself a
/// Play catalog (`onetimeproducts-0001.json`, `subscriptions-0001.json`,
/// `offers-premium-0001.json`); the catalog is one document of every list, which
/// ``PlayCatalog`` reads.
final class PlayPull: Sendable {
    let client: PlayClient
    let packageName: String
    let concurrency: Int
    let raw: String?
    let progress: PullProgress

    init(client: PlayClient, packageName: String, concurrency: Int, raw: String?, progress: PullProgress) {
        self.client = client
        self.packageName = packageName
        self.concurrency = max(1, concurrency)
        self.raw = raw
        self.progress = progress
    }

    /// What a list page says of what follows: its next page, and the subscriptions it names.
    private struct Page: Decodable {
        struct Subscription: Decodable {
            var productId: String?
        }
        var subscriptions: [Subscription]?
        var nextPageToken: String?
    }

    /// The pages of every list, in order: one-time products, subscriptions, then each
    /// subscription's offers.
    func run() async throws -> [[UInt8]] {
        let app = "/androidpublisher/v3/applications/" + Self.escaped(packageName)
        var pages = try await list(app + "/oneTimeProducts", name: "onetimeproducts").pages
        let (subscriptionPages, listed) = try await list(app + "/subscriptions", name: "subscriptions")
        pages += subscriptionPages
        // An ID Play would not give is refused when the catalog is read; it is not put in a path.
        let products = listed.filter { ProductIDRule.googlePlay.problem(with: $0) == nil && !$0.contains(":") }
        progress.listed(products: products.count)
        // Each subscription's offers, in order, at most `concurrency` at once.
        var offers = [[[UInt8]]](repeating: [], count: products.count)
        try await withThrowingTaskGroup(of: (Int, [[UInt8]]).self) { group in
            var next = 0
            func start() {
                let index = next
                next += 1
                let id = products[index]
                group.addTask {
                    let found = try await self.list(app + "/subscriptions/\(id)/basePlans/-/offers", name: "offers-\(id)").pages
                    self.progress.productDone()
                    return (index, found)
                }
            }
            while next < min(concurrency, products.count) { start() }
            while let (index, found) = try await group.next() {
                offers[index] = found
                if next < products.count { start() }
            }
        }
        return pages + offers.flatMap { $0 }
    }

    /// Every page of a list, each read once as it arrives (its next page, the subscriptions it
    /// names) and written to the raw folder.
    private func list(_ path: String, name: String) async throws -> (pages: [[UInt8]], subscriptions: [String]) {
        var pages: [[UInt8]] = []
        var subscriptions: [String] = []
        var token: String?
        repeat {
            let query = "?pageSize=1000" + (token.map { "&pageToken=" + Self.escaped($0) } ?? "")
            progress.request()
            let body = try await client.get(path + query)
            pages.append(body)
            if let raw {
                let file = "\(raw)/\(name)-\(String(format: "%04d", pages.count)).json"
                do {
                    try Data(body).write(to: URL(fileURLWithPath: file))
                } catch {
                    throw StorePriceError.unwritableFile(path: file, reason: "cannot write the response")
                }
            }
            guard let page = try? JSONDecoder().decode(Page.self, from: Data(body)) else {
                throw PlayClient.Failure(
                    description: "Google Play answered GET \(AppStoreConnectClient.whole(path)) with something other than a list; stopped")
            }
            subscriptions += (page.subscriptions ?? []).compactMap(\.productId)
            let next = page.nextPageToken
            guard next == nil || next != token else {
                throw PlayClient.Failure(description: "Google Play gave GET \(AppStoreConnectClient.whole(path)) the same next page again; stopped")
            }
            token = next.flatMap { $0.isEmpty ? nil : $0 }
        } while token != nil
        return (pages, subscriptions)
    }

    /// One document of every list's pages, as `play pull` writes the catalog: each list's
    /// resources in order under its key, their bytes as Google wrote them. The pages are JSON
    /// objects, as ``run()`` checked each when it came.
    static func catalog(of pages: [[UInt8]]) -> [UInt8] {
        let keys = ["oneTimeProducts", "subscriptions", "subscriptionOffers"]
        var lists: [String: [ArraySlice<UInt8>]] = [:]
        for page in pages {
            for key in keys {
                guard let items = topLevelArray(key, in: page),
                    items.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) })
                else { continue }
                lists[key, default: []].append(items)
            }
        }
        var document = Array("{".utf8)
        for key in keys {
            guard let parts = lists[key] else { continue }
            let opening = (document.count > 1 ? ",\n" : "\n") + "  \"\(key)\": ["
            document += Array(opening.utf8)
            for (index, part) in parts.enumerated() {
                if index > 0 { document.append(UInt8(ascii: ",")) }
                document += part
            }
            document.append(UInt8(ascii: "]"))
        }
        document += Array("\n}\n".utf8)
        return document
    }

    /// The bytes inside the array that is the value of `key` in a JSON object, its outermost
    /// level: what lies between `[` and its `]`. Nil when the object has no such array.
    static func topLevelArray(_ key: String, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let name = Array(key.utf8)
        var depth = 0
        var index = 0
        // The last string read in the outermost object since its last comma: a key before a value.
        var lastKey: Range<Int>?
        var start: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let first = index + 1
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    index += 1
                }
                if depth == 1, lastKey == nil { lastKey = first..<min(index, bytes.count) }
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                if depth == 1, byte == UInt8(ascii: "["), let key = lastKey, bytes[key].elementsEqual(name) { start = index + 1 }
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 1, let first = start { return bytes[first..<index] }
            } else if byte == UInt8(ascii: ","), depth == 1 {
                lastKey = nil
            }
            index += 1
        }
        return nil
    }

    /// Text for a URL's path or query: letters, digits and `-._~` as they are, the rest escaped.
    static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
