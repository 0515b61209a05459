import Foundation
import StorePrice
import Synchronization

/// An app's products, prices and offers, fetched from App Store Connect as `storeprice asc pull`
/// does: first the lists that name the products, one after another, so that the products come
/// in the order App Store Connect lists them; then every product's prices, titles and offers,
/// at most `concurrency` requests at once.
///
/// Each answer is read once, as it arrives, into an ``AppStoreConnectCatalog/Reader``, which
/// keeps what the catalog needs, and written to the raw folder if there is one; its bytes then
/// go. The raw files are named by the request's place in the pull (the lists first), so that
/// `storeprice render` reads them in the order the pull read them, and two pulls of the same
/// data write the same files.
final class AppStoreConnectPull: Sendable {
    let client: AppStoreConnectClient
    let concurrency: Int
    let raw: String?
    let progress: PullProgress
    private let reader: Mutex<AppStoreConnectCatalog.Reader>

    init(client: AppStoreConnectClient, concurrency: Int, raw: String?, date: Date, progress: PullProgress) {
        self.client = client
        self.concurrency = max(1, concurrency)
        self.raw = raw
        self.progress = progress
        reader = Mutex(AppStoreConnectCatalog.Reader(effectiveOn: date))
    }

    /// One list to fetch, every page: its path, its place among the raw files, the product it
    /// belongs to (nil for the lists that name products), and what to fetch for the resources
    /// it lists.
    struct Job: Sendable {
        var path: String
        var number: String
        var product: String?
        var follow: Follow = .nothing
    }

    /// What a list's resources lead to.
    enum Follow: Sendable {
        case nothing
        /// Each in-app purchase's prices and titles.
        case inAppPurchases
        /// Each group's subscriptions.
        case subscriptionGroups
        /// Each subscription's prices, titles and offers.
        case subscriptions
        /// Each offer's prices: its resources are offers of this type.
        case offerPrices(type: String)
    }

    /// The catalog of the app whose Apple ID or bundle ID is `app`.
    func run(app: String) async throws -> AppStoreConnectCatalog {
        let appID: String
        var counter = 0
        func number() -> String {
            counter += 1
            return String(repeating: "0", count: max(0, 4 - String(counter).count)) + String(counter)
        }
        if Self.isAppleID(app) {
            appID = app
            // The app itself: its bundle ID names its own price, if it has one.
            _ = try await fetch(Job(path: "/v1/apps/\(app)", number: number()))
        } else {
            let encoded = app.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: ".-_"))) ?? app
            let lookup = "/v1/apps?filter%5BbundleId%5D=\(encoded)&limit=200"
            let found = try await fetch(Job(path: lookup, number: number())).resources.filter {
                $0.type == "apps" && $0.bundleID == app
            }
            // The filter matches more than the bundle ID itself: only an exact one is the app.
            guard let match = found.first else {
                throw AppStoreConnectClient.Failure(
                    description: "no app of this key's team has the bundle ID '\(app.escapedForMessage)' (GET /v1/apps?filter[bundleId]=… "
                        + "found none); check it in App Store Connect, or give the app's Apple ID")
            }
            appID = try Self.checkedID(match.id, type: "apps", url: lookup)
        }
        var listed = try await fetch(Job(path: "/v1/apps/\(appID)/inAppPurchasesV2?limit=200", number: number(), follow: .inAppPurchases))
        let groups = try await fetch(Job(path: "/v1/apps/\(appID)/subscriptionGroups?limit=200", number: number(), follow: .subscriptionGroups))
        for group in groups.jobs {
            listed.jobs += try await fetch(Job(path: group.path, number: number(), follow: .subscriptions)).jobs
        }
        // The app's own price schedule, as a product named by its bundle ID.
        var jobs = [
            Job(path: "/v1/appPriceSchedules/\(appID)/manualPrices?include=appPricePoint,territory&limit=200", number: "", product: "app"),
            Job(path: "/v1/appPriceSchedules/\(appID)/automaticPrices?include=appPricePoint,territory&limit=200", number: "", product: "app"),
        ] + listed.jobs
        for index in jobs.indices { jobs[index].number = number() }
        progress.listed(products: Set(jobs.compactMap(\.product)).count)
        try await runAtOnce(jobs)
        return try reader.withLock { try $0.catalog() }
    }

    /// Runs jobs, and the jobs their answers lead to, at most ``concurrency`` at once.
    private func runAtOnce(_ initial: [Job]) async throws {
        var queue = initial[...]
        var pending: [String: Int] = [:]
        for job in initial { if let product = job.product { pending[product, default: 0] += 1 } }
        try await withThrowingTaskGroup(of: (Job, [Job]).self) { group in
            var running = 0
            func start() {
                while running < concurrency, let job = queue.popFirst() {
                    running += 1
                    group.addTask { (job, try await self.fetch(job).jobs) }
                }
            }
            start()
            while let (finished, more) = try await group.next() {
                running -= 1
                for job in more { if let product = job.product { pending[product, default: 0] += 1 } }
                queue.append(contentsOf: more)
                if let product = finished.product {
                    pending[product, default: 1] -= 1
                    if pending[product] == 0 { progress.productDone() }
                }
                start()
            }
        }
    }

    /// Every page of one job's list, each read and written as it comes; what its resources lead to.
    private func fetch(_ job: Job) async throws -> (resources: [AppStoreConnectCatalog.Response.Resource], jobs: [Job]) {
        var resources: [AppStoreConnectCatalog.Response.Resource] = []
        var fetched: Set<String> = []
        var next: String? = client.baseURL + job.path
        var page = 0
        while let url = next {
            guard fetched.insert(url).inserted else {
                throw AppStoreConnectClient.Failure(
                    description: "App Store Connect's next page is one already read, \(AppStoreConnectClient.shown(url)); stopped")
            }
            page += 1
            let json = try await client.get(url)
            progress.request()
            if let raw {
                let name = job.number + (page > 1 ? "p\(page)" : "") + "-" + Self.fileName(url)
                try OutputFile.write(String(decoding: json, as: UTF8.self), to: raw + "/" + name)
            }
            let response = try reader.withLock { try $0.read(json, source: url) }
            // An answer names what it answers: another resource's would be joined to the wrong product.
            if let link = response.selfLink, Self.path(of: link) != Self.path(of: url) {
                throw AppStoreConnectClient.Failure(
                    description: "App Store Connect's answer to \(AppStoreConnectClient.shown(url)) says it answers "
                        + "'\(AppStoreConnectClient.whole(AppStoreConnectClient.path(of: link)))' (links.self); stopped")
            }
            resources += response.resources
            next = nil
            if let link = response.next {
                guard link.hasPrefix(client.baseURL + "/") else {
                    throw AppStoreConnectClient.Failure(
                        description: "App Store Connect's next page is not on \(AppStoreConnectClient.whole(client.baseURL)), so the "
                            + "token is not sent there: '\(AppStoreConnectClient.whole(link))'")
                }
                next = link
            }
            if page > 10_000 { throw AppStoreConnectClient.Failure(description: "more than 10,000 pages from \(job.path.escapedForMessage)") }
        }
        return (resources, try jobs(after: job, resources: resources))
    }

    /// The jobs a list's resources lead to, numbered after the job that found them.
    private func jobs(after job: Job, resources: [AppStoreConnectCatalog.Response.Resource]) throws -> [Job] {
        func ids(_ type: String) throws -> [String] {
            try resources.filter { $0.type == type }.map { try Self.checkedID($0.id, type: type, url: client.baseURL + job.path) }
        }
        switch job.follow {
        case .nothing:
            return []
        case .inAppPurchases:
            return try ids("inAppPurchases").flatMap { id in
                [
                    "/v1/inAppPurchasePriceSchedules/\(id)/manualPrices?include=inAppPurchasePricePoint,territory&limit=200",
                    "/v1/inAppPurchasePriceSchedules/\(id)/automaticPrices?include=inAppPurchasePricePoint,territory&limit=200",
                    "/v2/inAppPurchases/\(id)/inAppPurchaseLocalizations?limit=200",
                ].map { Job(path: $0, number: "", product: "inAppPurchases/\(id)") }
            }
        case .subscriptionGroups:
            return try ids("subscriptionGroups").map { Job(path: "/v1/subscriptionGroups/\($0)/subscriptions?limit=200", number: "") }
        case .subscriptions:
            return try ids("subscriptions").flatMap { id in
                [
                    Job(path: "/v1/subscriptions/\(id)/prices?include=subscriptionPricePoint,territory&limit=200", number: ""),
                    Job(path: "/v1/subscriptions/\(id)/subscriptionLocalizations?limit=200", number: ""),
                    Job(path: "/v1/subscriptions/\(id)/introductoryOffers?include=territory,subscriptionPricePoint&limit=200", number: ""),
                    Job(
                        path: "/v1/subscriptions/\(id)/promotionalOffers?limit=200", number: "",
                        follow: .offerPrices(type: "subscriptionPromotionalOffers")),
                    Job(path: "/v1/subscriptions/\(id)/winBackOffers?limit=200", number: "", follow: .offerPrices(type: "winBackOffers")),
                    Job(
                        path: "/v1/subscriptions/\(id)/offerCodes?limit=200", number: "",
                        follow: .offerPrices(type: "subscriptionOfferCodes")),
                ].map { job in
                    var job = job
                    job.product = "subscriptions/\(id)"
                    return job
                }
            }
        case .offerPrices(let type):
            return try ids(type).enumerated().map { index, id in
                Job(
                    path: "/v1/\(type)/\(id)/prices?include=territory,subscriptionPricePoint&limit=200",
                    number: job.number + "o" + String(index + 1), product: job.product)
            }
        }
    }

    /// A URL's path alone, its percent-escapes read: what `links.self` must share with the request.
    static func path(of url: String) -> String {
        let path = AppStoreConnectClient.path(of: url).prefix { $0 != "?" && $0 != "#" }
        return String(path).removingPercentEncoding ?? String(path)
    }

    /// Whether text is an app's Apple ID: digits, as App Store Connect writes them.
    static func isAppleID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 20 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// An ID from Apple, checked before it goes into a path: letters, digits, `_`, `-`, `+` and
    /// `=` (Apple's IDs are digits, or base64 for some resources), never `/`, `.` or `%`.
    static func checkedID(_ id: String, type: String, url: String) throws -> String {
        guard !id.isEmpty, id.utf8.count <= 200,
            id.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "+") })
        else {
            throw AppStoreConnectClient.Failure(
                description: "App Store Connect's \(AppStoreConnectClient.shown(url)) lists \(type) '\(id.escapedForMessage)', "
                    + "whose ID is not one Apple writes (letters, digits, _ - + =); stopped")
        }
        return id
    }

    /// A response's file name after its number: its path, `v1-inAppPurchasePriceSchedules-6444653105-manualPrices.json`.
    static func fileName(_ url: String) -> String {
        AppStoreConnectClient.path(of: url).prefix { $0 != "?" }.split(separator: "/").joined(separator: "-") + ".json"
    }
}

/// Async work run from a synchronous command, waited for on the calling thread (never one of
/// Swift's cooperative pool, which runs the work).
enum Blocking {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        let result = Mutex<Value?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        // Set before the signal.
        guard let value = result.withLock({ $0 }) else { preconditionFailure("the work ended without a value") }
        return value
    }
}

extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A)
    }
}
