import Synchronization
import TestSupport
import Testing

@testable import StorePrice

/// Prices formatted ahead, while the first helper builds formatters, are the parts a worker's
/// render would have made: the rows are the same bytes, and the render formats only what was
/// left to it.
@Suite struct FormatAheadTests {
    /// A bulk run's shared state for every storefront, with every formatter built.
    struct Run {
        let plan: BulkPlan
        let generations: PriceTables.Generations

        init(format: BulkRenderer.Format = .jsonLines, options: PriceFormatter.Options = .init()) throws {
            let targets = RenderTarget.storefronts(Storefront.all)
            let plan = try BulkPlan(
                source: "catalog.csv", columns: (0, 1, 2),
                layout: RowLayout(format: format, targets: targets, escapeNonASCII: false, rawCSV: false),
                targets: targets, options: options, wanted: nil, titles: false)
            for index in 0..<plan.compilation.count { plan.compilation.prepare(index) }
            self.plan = plan
            generations = PriceTables.Generations {
                PriceTables(currencies: plan.currencies.count, targets: plan.targets.count, storefronts: plan.storefronts.count, workers: 2)
            }
        }

        /// Renders `text` as one chunk on worker 1, after worker 0 formatted it ahead when asked.
        func render(_ text: String, ahead: Bool) -> (bytes: [UInt8], results: ChunkResults, formattedAhead: Int) {
            var input = ByteBuffer(capacity: text.utf8.count)
            input.append(text)
            input.padWithZeros(ChunkRenderer.padding)
            var formattedAhead = 0
            if ahead {
                var early = ChunkRenderer(plan: plan, generations: generations, worker: 0)
                formattedAhead = early.formatAhead(input.bytes)
            }
            var renderer = ChunkRenderer(plan: plan, generations: generations, worker: 1)
            var output = ByteBuffer(capacity: 1 << 16)
            var results = ChunkResults()
            renderer.render(input.bytes, into: &output, &results)
            return (Array(output.bytes), results, formattedAhead)
        }
    }

    /// Lines of every kind the render reads, some that `formatAhead` leaves to it (a lower-case
    /// code, a numeric storefront ID, CRLF, an empty line), priced in every storefront.
    static let catalog: String = {
        var text = ""
        for (offset, storefront) in Storefront.all.enumerated() {
            text += "com.example.a,\(storefront.countryCode),\(offset % 7 + 1)\(storefront.currency.fractionDigits > 0 ? ".99" : "")\n"
        }
        for (offset, storefront) in Storefront.all.enumerated() {
            let code = offset == 3 ? storefront.countryCode.lowercased() : offset == 5 ? String(storefront.id) : storefront.countryCode
            text += "com.example.b,\(code),\(offset % 5 + 10)" + (offset % 4 == 0 ? "\r\n" : "\n")
            if offset == 9 { text += "\n" }
        }
        return text
    }()

    @Test(arguments: [BulkRenderer.Format.jsonLines, .csv])
    func rowsAfterFormattingAheadAreTheSameBytes(_ format: BulkRenderer.Format) throws {
        let plain = try Run(format: format).render(Self.catalog, ahead: false)
        let run = try Run(format: format)
        let early = run.render(Self.catalog, ahead: true)
        try #require(plain.results.failure == nil && plain.results.rows == 2 * Storefront.all.count)
        #expect(early.results.failure == nil)
        expectBytes(String(decoding: early.bytes, as: UTF8.self), String(decoding: plain.bytes, as: UTF8.self))
        // Ahead: every price but the two whose codes it leaves to the render.
        #expect(early.formattedAhead == plain.results.formats - 2, "\(early.formattedAhead) of \(plain.results.formats)")
        #expect(early.results.formats == 2)
    }

    /// A price the options cannot show is left to the render, which stops at it as before.
    @Test func aPriceThatCannotBeShownIsLeftToTheRender() throws {
        let text = "a,USA,0.99\na,JPN,160.50\na,GBR,0.99\n"
        let plain = try Run().render(text, ahead: false)
        let early = try Run().render(text, ahead: true)
        #expect(early.formattedAhead == 2)
        let failure = try #require(early.results.failure)
        #expect(failure.line == 2 && failure.field == "price for JPN" && failure.reason == plain.results.failure?.reason)
        expectBytes(String(decoding: early.bytes, as: UTF8.self), String(decoding: plain.bytes, as: UTF8.self))
    }

    /// The calling thread's passes: a round over the chunks read and not finished when 16
    /// formatters or more were built since the last round began, one chunk a call.
    @Test func aRoundComesEvery16FormattersBuiltOneChunkACall() throws {
        let run = try Run()
        let ahead = FormatAhead(ChunkRenderer(plan: run.plan, generations: run.generations, worker: 0), compilation: run.plan.compilation)
        var chunks: [BulkChunk] = []
        for text in [Self.catalog, "c,USA,1234.99\nc,JPN,12345\n"] {
            let chunk = BulkChunk()
            chunk.input.append(text)
            chunk.input.padWithZeros(ChunkRenderer.padding)
            ahead.read(chunk)
            chunks.append(chunk)
        }
        #expect(ahead.pass())
        #expect(ahead.formats == 2 * Storefront.all.count - 2)
        #expect(ahead.pass())
        #expect(ahead.formats == 2 * Storefront.all.count - 2 + 2)
        // Nothing built since the round began: no other.
        #expect(!ahead.pass())
        for chunk in chunks { ahead.finished(chunk) }
        #expect(!ahead.pass())
    }

    /// Once nothing more is built ahead, the renderer goes, with the tables it holds, at the next
    /// chunk finished: a run that renews its tables does not keep the first generation too.
    @Test func nothingIsFormattedAheadOnceBuildingAheadIsOver() throws {
        let run = try Run()
        let ahead = FormatAhead(ChunkRenderer(plan: run.plan, generations: run.generations, worker: 0), compilation: run.plan.compilation)
        func chunk(_ text: String) -> BulkChunk {
            let chunk = BulkChunk()
            chunk.input.append(text)
            chunk.input.padWithZeros(ChunkRenderer.padding)
            return chunk
        }
        let first = chunk("a,USA,0.99\n")
        ahead.read(first)
        // Told nothing to build, it returns within 2 ms.
        run.plan.compilation.prepareAll()
        #expect(run.plan.compilation.isDoneBuildingAhead)
        ahead.finished(first)
        ahead.read(chunk(Self.catalog))
        #expect(!ahead.pass())
        #expect(ahead.formats == 0)
    }

    /// A run whose helper could not be started builds nothing ahead: formatting ahead lets go of
    /// its renderer as it would once the builds ahead end.
    @Test func nothingIsFormattedAheadWhenNoHelperBuildsAhead() throws {
        let run = try Run()
        let ahead = FormatAhead(ChunkRenderer(plan: run.plan, generations: run.generations, worker: 0), compilation: run.plan.compilation)
        let first = BulkChunk()
        first.input.append("a,USA,0.99\n")
        first.input.padWithZeros(ChunkRenderer.padding)
        ahead.read(first)
        #expect(!run.plan.compilation.isDoneBuildingAhead)
        run.plan.compilation.willNotBuildAhead()
        #expect(run.plan.compilation.isDoneBuildingAhead)
        ahead.finished(first)
        let next = BulkChunk()
        next.input.append(Self.catalog)
        next.input.padWithZeros(ChunkRenderer.padding)
        ahead.read(next)
        // Every formatter is built: a round would begin, but the renderer is gone.
        #expect(!ahead.pass())
        #expect(ahead.formats == 0)
    }
}
