import ArgumentParser
import Logging
import StorePrice

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The catalog formats, as the CLI names them.
enum CatalogFormatChoice: String, ExpressibleByArgument, CaseIterable {
    case csv, jsonl, storekit, asc, play

    var format: CatalogFormat {
        switch self {
        case .csv: .csv
        case .jsonl: .jsonl
        case .storekit: .storekit
        case .asc: .appStoreConnect
        case .play: .play
        }
    }
}

extension StorePriceCommand {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "Render every product's price for every test account or storefront.",
            discussion: """
                Reads a catalog (CSV with product,storefront,price; JSON Lines with one product \
                per line; or an Xcode .storekit file) and writes one row per product and test \
                account (by default the built-in accounts) or storefront: the price locale, the \
                amount, the price as that store shows it, and the title in the store language.

                A Google Play catalog (--catalog-format play: Play Developer API documents or the \
                Play Console's CSV, or a folder of them, as 'storeprice play pull' writes) is \
                rendered for the built-in Play testers, or --storefronts with Play region codes, \
                in the Play style unless --style icu.

                JSON Lines (the default), a JSON array and CSV name the fields product, storefront, \
                account, price_locale, amount, formatted, title, period, price_per_period, offer, \
                offer_terms, offers, billing_plans and paywall (a subscription's \
                billed_amount_first and offer_then_price lines; see 'storeprice paywall'); a \
                table shows them for people.

                A product with no price in a requested storefront, or an ID in --products that the \
                catalog lacks, is an invalid product, as a store reports it: it has rows only for \
                the storefronts that price it, and it is listed on standard error; with --strict the \
                run fails with status 65 (the rows already written stay on standard output).

                A product appears once (a CSV catalog keeps its rows together); a repeat is a bad \
                catalog, and stops the run at its line (with --output the old file is kept). \
                Memory stays flat with the rows and prices, and grows by about 70 bytes a \
                distinct product (the App Store allows 10,000 in-app purchases an app).

                Examples:
                  storeprice render Data/catalog-sample.jsonl
                  storeprice render Data/catalog-sample.jsonl --storefronts JPN,USA,DEU \\
                    --format table
                  storeprice render Data/catalog-sample.storekit --storefronts USA
                  storeprice render play-catalog.json --catalog-format play \\
                    --storefronts US,JP,BD
                  storeprice render Data/catalog-sample.jsonl \\
                    --products Data/products-sample.plist --strict
                  storeprice render catalog.csv --storefronts all --output prices.jsonl

                Exit status: 0 rendered (invalid products are listed on standard error), 64 usage error, 65 a bad catalog, accounts file or product list, or invalid products with --strict, 73 the output file (or the temporary file written beside it) cannot be written, 74 standard output cannot be written, 141 standard output closed by its reader (| head), 128 + N stopped by signal N (the old output file is kept).
                """
        )

        @Argument(help: ArgumentHelp(
            "The catalog file (.csv, .jsonl or .storekit), an App Store Connect response (.json) or a folder of them; - reads standard input.",
            valueName: "catalog"))
        var catalog: String

        @Option(help: "The catalog's format, when its name does not tell it; play for Google Play's documents or Console CSV (never implied by a name).")
        var catalogFormat: CatalogFormatChoice?

        @OptionGroup var effectiveDate: EffectiveDateOption

        @Option(help: ArgumentHelp(
            "Render for these storefronts (all, or codes such as JPN,USA,143444; Play regions such as US,JP,BD for a Play catalog) instead of test accounts.",
            valueName: "codes"))
        var storefronts: String?

        @OptionGroup var accountsSource: AccountsOptions

        @Option(help: ArgumentHelp(
            "Render only these product IDs: a property list or JSON array of strings.", valueName: "list"))
        var products: String?

        @Option(help: ArgumentHelp(
            "The output format: jsonl (JSON Lines), json (an array), csv or table.",
            discussion: "A table is held in memory until the end, to align its columns."))
        var format: OutputFormat = .jsonl

        @Option(help: ArgumentHelp(
            "Write to this file, replaced only when the run succeeds (a FIFO or device is written to directly, a symbolic link's target is replaced); standard output when omitted or -.",
            valueName: "file"))
        var output: String?

        @Flag(help: ArgumentHelp(
            "Write CSV cells of catalog text exactly as read.",
            discussion: "By default a product ID, title or account name that starts with =, +, -, @ or a control character gets a leading ' in CSV, so that a spreadsheet does not run it as a formula."))
        var rawCSV = false

        @Flag(help: "Fail with status 65 when any product is invalid (without it, they are listed on standard error and the run succeeds).")
        var strict = false

        @OptionGroup var threads: WorkersOption

        @OptionGroup var formatting: FormattingOptions

        @OptionGroup var productIDOptions: ProductIDOptions

        func validate() throws {
            try formatting.style.checkStyle(in: "storeprice render", play: isPlay)
            if storefronts != nil, accountsSource.accounts != nil {
                throw ValidationError("Give --storefronts or --accounts, not both.")
            }
            if isPlay, accountsSource.accounts != nil {
                throw ValidationError("--accounts reads App Store test accounts; a Play catalog is rendered for the built-in Play testers (storeprice accounts --store play) or for --storefronts with Play region codes, such as US,JP,BD.")
            }
            try effectiveDate.validate(catalog: catalog, format: catalogFormat?.format)
        }

        /// Whether the catalog is Google Play's (`--catalog-format play`).
        private var isPlay: Bool { catalogFormat == .play }

        func run() throws {
            let targets = try self.targets()
            let productIDs = try products.map { (path) throws(StorePriceError) in try ProductIDList(contentsOfFile: path) }
            // Every catalog goes through the library's bulk pipeline, on every core: CSV and JSON
            // Lines catalogs from their bytes, a .storekit file's products once read; a table
            // takes its rows as values.
            let catalogFormat = self.catalogFormat?.format ?? CatalogFormat(path: catalog)
            if format != .table {
                try renderBulk(targets: targets, productIDs: productIDs, catalogFormat: catalogFormat)
                return
            }
            var source = try Catalog.open(
                catalog, format: catalogFormat, productIDRule: productIDOptions.rule, effectiveOn: effectiveDate.date)
            // Invalid products are listed on standard error below, so the library's log stays quiet.
            let renderer = CatalogRenderer(
                targets: targets, options: formatting.options(play: isPlay), workers: threads.workers,
                logger: Logger(label: "storeprice", factory: { _ in SwiftLogNoOpLogHandler() }))

            // `--output -` is standard output, as a catalog `-` is standard input.
            let file = try output.flatMap { (path) throws(StorePriceError) in path == "-" ? nil : try OutputFile(path: path) }
            var buffer = OutputBuffer(descriptor: file?.descriptor ?? Console.standardOutput, path: file == nil ? nil : output)
            var table = RowTable(escape: formatting.escape)
            var progress = Progress()
            let report = try renderer.render(
                &source, productIDs: productIDs,
                progress: { report, position in progress.update(rows: report.rows, position: position) }
            ) { rows in table.add(rows) }
            buffer.append(table.text)
            buffer.endLine()
            try buffer.finish()
            Progress.clear()

            var invalid = InvalidProductListing()
            for product in report.invalidProducts { invalid.add(product) }
            invalid.flush()
            for note in source.notes { Console.error("note: " + note) }
            noteIfEmpty(report)
            reportLocalesWithoutWording(table.localesWithoutWording)
            try summarize(invalid)
            try file?.commit()
        }

        /// Notes the price locales whose offers have no wording, on standard error.
        private func reportLocalesWithoutWording(_ found: Set<String>) {
            guard !found.isEmpty else { return }
            let locales = found.sorted()
            let shown = locales.prefix(8).joined(separator: ", ") + (locales.count > 8 ? ", …" : "")
            Console.error(
                "no built-in offer wording for \(locales.count) price locale\(locales.count == 1 ? "" : "s") (\(shown)); "
                    + "their offer text is empty (null in JSON Lines) and the offer's terms are written instead")
        }

        /// Renders a catalog with the library's bulk pipeline to JSON Lines, JSON or CSV, writing
        /// each chunk's rows as they come, in order.
        private func renderBulk(targets: [RenderTarget], productIDs: ProductIDList?, catalogFormat: CatalogFormat?) throws {
            let renderer = BulkRenderer(
                targets: targets, format: format == .csv ? .csv : format == .json ? .json : .jsonLines,
                options: formatting.options(play: isPlay),
                workers: threads.workers, escapeNonASCII: formatting.escape, rawCSV: rawCSV,
                productIDRule: productIDOptions.rule)
            let file = try output.flatMap { (path) throws(StorePriceError) in path == "-" ? nil : try OutputFile(path: path) }
            let descriptor = file?.descriptor ?? Console.standardOutput
            func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(WriteFailure) {
                if let code = OutputFile.writeAll(bytes, to: descriptor) {
                    throw WriteFailure(path: file == nil ? nil : output, code: code)
                }
            }
            var progress = Progress()
            // Invalid products are listed as they come: a catalog can have millions. When a bad
            // line stops the run, those of the rows written before it are listed before its error.
            var invalid = InvalidProductListing()
            defer { invalid.flush() }
            func writeRows(_ bytes: UnsafeRawBufferPointer) throws {
                try write(bytes.assumingMemoryBound(to: UInt8.self))
            }
            func showProgress(_ report: RenderReport, _ position: (done: Int, total: Int?)) {
                progress.update(rows: report.rows, position: position)
            }
            let report: RenderReport
            var notes: [String] = []
            switch catalogFormat {
            case .csv?:
                report = try renderer.renderCSV(
                    at: catalog, productIDs: productIDs, progress: showProgress, invalidProduct: { invalid.add($0) },
                    write: writeRows)
            case .jsonl?:
                report = try renderer.renderJSONLines(
                    at: catalog, productIDs: productIDs, progress: showProgress, invalidProduct: { invalid.add($0) },
                    write: writeRows)
            case .storekit?, .appStoreConnect?, .play?, nil:
                // Without a format, opening says so (or finds a folder of responses).
                var source = try Catalog.open(
                    catalog, format: catalogFormat, productIDRule: productIDOptions.rule, effectiveOn: effectiveDate.date)
                report = try renderer.render(
                    &source, productIDs: productIDs, progress: showProgress, invalidProduct: { invalid.add($0) },
                    write: writeRows)
                notes = source.notes
            }
            Progress.clear()
            invalid.flush()
            for note in notes { Console.error("note: " + note) }
            noteIfEmpty(report)
            reportLocalesWithoutWording(report.localesWithoutOfferWording)
            try summarize(invalid)
            try file?.commit()
        }

        /// Counts the invalid products listed; with `--strict` they end the run with 65.
        /// Says so when the catalog held no product: a run that writes nothing is not silent.
        private func noteIfEmpty(_ report: RenderReport) {
            // With --products, the listed IDs the catalog lacks are named as invalid products instead.
            guard report.products == 0, products == nil else { return }
            Console.error("note: catalog '\(catalog.escapedPathForMessage)' has no products; nothing was rendered")
        }

        private func summarize(_ invalid: InvalidProductListing) throws {
            guard invalid.count > 0 else { return }
            let noun = invalid.count == 1 ? "invalid product" : "invalid products"
            if strict {
                Console.error("\(invalid.count) \(noun); status 65, as --strict asks")
                throw ExitCode.dataError
            }
            Console.error("\(invalid.count) \(noun), with rows only where priced; --strict makes this an error")
        }

        private func targets() throws -> [RenderTarget] {
            guard let storefronts else {
                if isPlay { return RenderTarget.accounts(PlayTester.builtIn.map(\.account)) }
                return RenderTarget.accounts(try accountsSource.load().accounts)
            }
            if storefronts.lowercased() == "all" {
                return RenderTarget.storefronts(isPlay ? PlayRegion.all.map(\.storefront) : Storefront.all)
            }
            var chosen: [Storefront] = []
            for code in storefronts.split(separator: ",", omittingEmptySubsequences: true) {
                let storefront = isPlay ? try PlayRegion(String(code)).storefront : try Storefront(String(code))
                if !chosen.contains(storefront) { chosen.append(storefront) }
            }
            guard !chosen.isEmpty else {
                throw ValidationError(isPlay ? "--storefronts needs Play region codes, such as US,JP,BD, or all." : "--storefronts needs codes, such as JPN,USA, or all.")
            }
            return RenderTarget.storefronts(chosen)
        }
    }
}

/// A one-line progress report on standard error, when it is a terminal.
struct Progress {
    static let enabled = isatty(Console.standardError) == 1
    private var started = Clock.now
    private var lastShown = Clock.now

    mutating func update(rows: Int, position: (done: Int, total: Int?)) {
        guard Self.enabled else { return }
        let now = Clock.now
        guard now - lastShown >= 0.25 else { return }
        lastShown = now
        let elapsed = max(now - started, 0.001)
        let rate = Double(rows) / elapsed
        var line = "\rrendered \(rows) rows, \(Int(rate)) rows/s"
        if let total = position.total, total > 0, position.done > 0 {
            let remaining = elapsed * Double(total - position.done) / Double(position.done)
            line += ", ETA \(Int(remaining.rounded(.up)))s"
        }
        Console.toStandardError(line + "\u{1B}[K")
    }

    static func clear() {
        guard enabled else { return }
        Console.toStandardError("\r\u{1B}[K")
    }

    enum Clock {
        static var now: Double {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }
}
