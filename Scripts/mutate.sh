#!/usr/bin/env bash
# A small mutation check: break one behaviour at a time, run the tests that should notice, and list
# the breaks that no test noticed (survivors). Run it before a release; it is not part of CI
# (about 90 minutes on 2 cores: 120 mutants of 30 to 60 seconds each).
#
# The tree is copied to a scratch directory and built once; each mutant then replaces one exact
# piece of source text, rebuilds, runs its tests, and restores the file. A mutant whose text is no
# longer in the source is reported as stale: update it with the code.
#
# Usage: Scripts/mutate.sh [NAME…]      (all mutants, or those named)
# Exit status: 0 when every mutant was killed, 1 when one survived or is stale.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${STOREPRICE_MUTATION_DIR:-$(mktemp -d)}"
log="$work/log"
mkdir -p "$work" "$log"
echo "mutate: copying the tree to $work/tree"
rm -rf "$work/tree"
mkdir -p "$work/tree"
# The tracked files as they are now (with uncommitted edits), without build folders.
(cd "$root" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$work/tree")
[ -d "$root/../shared" ] && ln -sfn "$root/../shared" "$work/shared"
cd "$work/tree"
echo "mutate: building"
swift build --build-tests >"$log/build.log" 2>&1 || { tail -20 "$log/build.log"; echo "mutate: the unmutated tree does not build"; exit 1; }

# NAME | FILE | TEXT | REPLACEMENT | TEST FILTER (swift test --filter; \.Suite/ matches one suite), or
# "run: COMMAND" for a check that is no test. A FILE under Examples/PriceService is built and tested
# in that package.
# Fields are separated by " | "; \n in TEXT or REPLACEMENT is a newline.
mutants=$(cat <<'EOF'
play-catalog-currency-unchecked | Sources/StorePrice/Catalogs/GooglePlay/PlayCatalogReader.swift | guard currency != region.currency.code else { return } | guard false else { return } | \.PlayCatalogTests/
play-discount-unprorated | Sources/StorePrice/Catalogs/GooglePlay/PlayCatalogReader.swift | guard let ratio = Self.proration(of: duration, over: period) else { | guard let ratio = Optional((1, 1)) else { | \.PlayCatalogTests/
play-relative-discount-taken-as-the-price | Sources/StorePrice/Catalogs/GooglePlay/PlayCatalogReader.swift | let low = numerator.low.multipliedFullWidth(by: scale - off) | let low = numerator.low.multipliedFullWidth(by: off) | \.PlayCatalogTests/
play-unavailable-region-sold | Sources/StorePrice/Catalogs/GooglePlay/PlayCatalogReader.swift | guard config.availability == nil \|\| config.availability == "AVAILABLE" else { | guard true else { | \.PlayCatalogTests/
play-offer-always-introductory | Sources/StorePrice/Catalogs/GooglePlay/PlayCatalogReader.swift | kind: offer.targeting?.acquisitionRule != nil ? .introductory : .promotional | kind: .introductory | \.PlayCatalogTests/
play-old-language-code-kept | Sources/StorePrice/Catalogs/GooglePlay/PlayCatalogReader.swift | guard let replaced = LocaleSubtags.replacedLanguages[parts[0].lowercased()] else { return tag } | guard let replaced = Optional<String>.none else { return tag } | \.PlayCatalogTests/
play-csv-crlf-unsplit | Sources/StorePrice/Catalogs/GooglePlay/PlayConsoleCSV.swift |  \|\| $0 == Self.crlf }) |  }) | \.PlayCatalogTests/
play-csv-default-price-kept | Sources/StorePrice/Catalogs/GooglePlay/PlayConsoleCSV.swift | row.prices.removeFirst() | _ = row.prices.first | \.PlayCatalogTests/
play-region-id-among-storefronts | Sources/StorePrice/GooglePlay/PlayRegion.swift | return Self.firstNumericID + Int(letters[0] &- 0x41) * 26 + Int(letters[1] &- 0x41) | return 143441 + Int(letters[0] &- 0x41) * 26 + Int(letters[1] &- 0x41) | \.PlayCatalogTests/
play-pull-next-page-unfollowed | Sources/storeprice/GooglePlay/PlayPull.swift | token = next.flatMap { $0.isEmpty ? nil : $0 } | token = nil | \.PlayPullTests/
play-pull-not-retried | Sources/storeprice/GooglePlay/PlayClient.swift | if status == .tooManyRequests \|\| (500..<600).contains(status.code), attempt <= retries { | if false { | \.PlayPullTests/
play-pull-assertion-unsigned-claims | Sources/storeprice/GooglePlay/PlayServiceAccount.swift | "aud":\#(JSONText.quote(tokenURL)) | "aud":"https://oauth2.googleapis.com/token" | \.PlayPullTests/
service-play-region-read-as-storefront | Examples/PriceService/Sources/PriceService/ProductQuery.swift | let storefront = play ? try PlayRegion(code).storefront : try Storefront(code) | let storefront = try Storefront(code) | aGooglePlayCatalog
play-free-for-every-amount | Sources/StorePrice/GooglePlay/PlayFormat.swift | if let free, amount == "0" { return free } | if let free { return free } | \.GooglePlayTests/
play-symbol-kept | Sources/StorePrice/GooglePlay/PlayFormat.swift | return text.replacing(symbol.icu, with: symbol.play) | return text | \.GooglePlayTests/
play-rejects-micros | Sources/StorePrice/Formatting/PriceFormatter.swift | if options.style == .play, options.rounding == .reject { options.rounding = .halfEven } | if options.style == .play, options.rounding == .reject { options.rounding = .reject } | \.GooglePlayTests/
play-rounds-half-up | Sources/StorePrice/Formatting/PriceFormatter.swift | if options.style == .play, options.rounding == .reject { options.rounding = .halfEven } | if options.style == .play, options.rounding == .reject { options.rounding = .halfUp } | \.GooglePlayTests/
play-free-when-rounded-to-zero | Sources/StorePrice/Formatting/PriceFormatter.swift | return play.apply(text, amount: price.amount) | return play.apply(text, amount: try shown(price).amount) | \.GooglePlayTests/
play-locale-region-from-language | Sources/StorePrice/GooglePlay/PlayRegion.swift | language: requested.language, script: requested.script, region: code, source: language) | language: requested.language, script: requested.script, region: requested.region ?? code, source: language) | \.GooglePlayTests/
play-currency-ignored | Sources/StorePrice/GooglePlay/PlayRegion.swift | let chosen = currency ?? self.currency | let chosen = self.currency | \.GooglePlayTests/
play-nanos-sign-unchecked | Sources/StorePrice/GooglePlay/Price+Play.swift | guard !(negativeUnits && nanos > 0), !(positiveUnits && nanos < 0) else { | guard true else { | \.GooglePlayTests/
play-nanos-unpadded | Sources/StorePrice/GooglePlay/Price+Play.swift | let padded = String(repeating: "0", count: 9 - fraction.utf8.count) + fraction | let padded = fraction | \.GooglePlayTests/
play-range-single-unworded | Sources/StorePrice/GooglePlay/PriceFormatter+ItemRange.swift | if single, let pattern = wording?.single { | if false, let pattern = wording?.single { | \.GooglePlayTests/
play-range-order-unchecked | Sources/StorePrice/GooglePlay/PriceFormatter+ItemRange.swift | guard low.decimalValue <= high.decimalValue else { | guard true else { | \.GooglePlayTests/
play-micros-option-ignored | Sources/storeprice/StorePriceCommand+Format.swift | text = try formatted(micros ? Self.decimal(ofMicros: amount, currency: priceLocale.currency) : amount, in: priceLocale) | text = try formatted(amount, in: priceLocale) | \.GooglePlayCommandTests/
play-region-without-store | Sources/storeprice/StorePriceCommand+Format.swift | if region != nil, store != .play { | if false { | \.GooglePlayCommandTests/
paywall-rounds-half-up | Sources/StorePrice/Paywalls/Paywall.swift | rounding: ApproximatePrice.Rounding = .down, offerStart: Date? = nil | rounding: ApproximatePrice.Rounding = .halfUp, offerStart: Date? = nil | \.PaywallTests/
saving-rounded-up | Sources/StorePrice/Paywalls/SavingsPercent.swift | if x.multiplied(by: middle) >= hundredY { high = middle } else { low = middle + 1 } | if x.multiplied(by: middle) > hundredY { high = middle } else { low = middle + 1 } | \.PaywallTests/
explicit-case-covers-category | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if selectors.contains(category) \|\| selectors.contains("=\(n)") { continue } | if selectors.contains(category) \|\| selectors.contains(where: { $0.hasPrefix("=") }) { continue } | \.PaywallTests/
app-store-text-digits | Sources/StorePrice/Formatting/PriceFormatter.swift | guard appStore != nil else { return locale } | guard appStore == nil else { return locale }\n        if true { return locale } | \.PaywallTests/
restated-from-the-given-price | Sources/StorePrice/Formatting/PriceFormatter.swift | guard price.fractionDigits > fractionDigits else { return price }\n        let rounding | return price\n        let rounding | \.PaywallTests/
nesting-unlimited | Sources/ICUNumberFormat/ICUMessageFormat.swift | if depth > Self.maximumNesting { | if depth > 100_000 { | \.PaywallCommandTests/
other-direction-not-isolated | Sources/StorePrice/Paywalls/MessagePatterns.swift | guard own != direction, !text.isEmpty, !chosenBy.contains(name) else { | guard false, !text.isEmpty, !chosenBy.contains(name) else { | \.PaywallTests/
select-value-isolated | Sources/StorePrice/Paywalls/MessagePatterns.swift | guard own != direction, !text.isEmpty, !chosenBy.contains(name) else { | guard own != direction, !text.isEmpty else { | \.PaywallTests/
printf-placeholder-missed | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if end < scalars.count, "d@sifuxX".unicodeScalars.contains(scalars[end]), | if end < scalars.count, "sifuxX".unicodeScalars.contains(scalars[end]), | \.PaywallTests/
keyword-dropped | Sources/StorePrice/Formatting/FormatterCache.swift | locale: locale.identifier, buildsAtOnce: buildsAtOnce) | locale: locale.languageIdentifier, buildsAtOnce: buildsAtOnce) | \.WholePriceLocaleTests/
script-dropped | Sources/StorePrice/Formatting/LocaleSubtags.swift | if let script { id += "_" + script } | _ = script | \.WholePriceLocaleTests/
half-even-is-half-up | Sources/StorePrice/Formatting/PriceFormatter.swift | case .halfEven: "rounding-mode-half-even" | case .halfEven: "rounding-mode-half-up" | \.PriceFormatterTests/
symbol-is-narrow | Sources/StorePrice/Formatting/PriceFormatter.swift | case .symbol: "unit-width-short" | case .symbol: "unit-width-narrow" | \.PriceFormatterTests/
negative-zero-signed | Sources/StorePrice/Formatting/PriceFormatter.swift | return String(price.amount.dropFirst()) | return price.amount | \.WholePriceLocaleTests/
currency-converted | Sources/StorePrice/Formatting/PriceFormatter.swift | guard price.currency == locale.currency else { | guard price.currency == price.currency else { | \.PriceFormatterTests/
repeated-keyword-kept | Sources/StorePrice/Formatting/PriceLocale.swift | guard currencyText == nil else { | guard currencyText == currencyText else { | \.WholePriceLocaleTests/
uncommon-currency-accepted | Sources/StorePrice/Formatting/CurrencyCode.swift | guard !ICU.uncommonCurrencyCodes.contains(upper) else { | guard ICU.uncommonCurrencyCodes.isEmpty || true else { | \.WholePriceLocaleTests/
kelvin-storefront | Sources/StorePrice/Storefronts/Storefront.swift | guard key.utf8.allSatisfy({ $0 < 0x80 }) else { throw .unknownStorefront(code, suggestions: []) } | _ = 0 | \.WholePriceLocaleTests/
trailing-zeros-kept | Sources/StorePrice/Formatting/Price.swift | while fraction.last == UInt8(ascii: "0") { fraction.removeLast() } | _ = 0 | \.PriceTests/
second-price-kept | Sources/StorePrice/Catalogs/JSONLinesCatalogReader.swift | guard made[storefront.numericID] == nil else {\n                throw .invalidCatalog( | guard made[storefront.numericID] == made[storefront.numericID] else {\n                throw .invalidCatalog( | \.CatalogTests/|\.HostileFileTests/
stale-free-trial-price | Sources/StorePrice/Catalogs/StoreKitConfiguration.swift | isFree ? ([:], nil) : try price( | try price( | \.StoreKitConfigurationTests/|\.RealWorldStoreKitTests/
promotional-offers-unread | Sources/StorePrice/Catalogs/StoreKitConfiguration.swift | try list(entry.adHocOffers, kind: .promotional | try list(nil, kind: .promotional | \.StoreKitConfigurationTests/|\.RealWorldStoreKitTests/
title-other-region-skipped | Sources/StorePrice/Catalogs/Product.swift | if let tag = sameLanguage.min( | if sameLanguage.isEmpty, let tag = sameLanguage.min( | \.CatalogRendererTests/|\.StoreKitConfigurationTests/
rows-price-slot-lost | Sources/StorePrice/Rendering/Pipeline/ChunkRenderer+Products.swift | rows.entries.append(RenderedBatch.Entry(product: index, target: Int32(target), price: price, title: title)) | rows.entries.append(RenderedBatch.Entry(product: index, target: Int32(target), price: 0, title: title)) | \.CatalogRendererTests/
amount-normalized-in-error | Sources/StorePrice/Catalogs/ProductOrigin.swift | reason = StorePriceError.excessPrecision(amount: place.written, | reason = StorePriceError.excessPrecision(amount: String(place.written.prefix(3)), | \.CatalogPriceErrorTests/
json-unescaped | Sources/StorePrice/Formatting/JSONText.swift | utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") } | !utf8.isEmpty | \.RenderCommandTests/|\.BulkRenderCommandTests/
csv-unquoted | Sources/StorePrice/Formatting/CSVText.swift | return quoted + "\"" | return text | \.RenderCommandTests/
escape-ignored | Sources/StorePrice/Rendering/RowTable.swift | escape ? UnicodeEscaping.escapeNonASCII(text) : text | text | \.EscapeOnEveryPathTests/
verify-blind-to-nbsp | Sources/StorePrice/Snapshots/PriceSnapshotDiff.swift | !before.formatted.utf8.elementsEqual(after.formatted.utf8) \|\| | !String(String.UnicodeScalarView(before.formatted.unicodeScalars.map { $0 == "\u{00A0}" ? " " : $0 })).utf8.elementsEqual(String(String.UnicodeScalarView(after.formatted.unicodeScalars.map { $0 == "\u{00A0}" ? " " : $0 })).utf8) \|\| | \.SnapshotCommandTests/
verify-skips-fields | Sources/StorePrice/Snapshots/PriceSnapshotDiff.swift | for (field, old, new) in fieldChanges(before, after) { | for (field, old, new) in fieldChanges(before, after).prefix(0) { | \.SnapshotCommandTests/
escaped-copy-unchecked | Sources/StorePrice/Snapshots/PriceSnapshot.swift | guard row.escaped.utf8.elementsEqual(stored.escaped.utf8) else { | guard row.escaped.utf8.elementsEqual(row.escaped.utf8) else { | \.GoldenSnapshotTests/|\.PriceSnapshotTests/
record-all-is-failed | Sources/StorePriceTesting/PriceSnapshotCheck.swift | if record == .all \|\| (record == .failed && !diff.isEmpty) { | if (record == .all \|\| record == .failed) && !diff.isEmpty { | \.GoldenSnapshotTests/
token-not-secret | Sources/StorePrice/Storefronts/TestAccountFile.swift | "secret", "token", "apikey" | "secret", "apikey" | \.TestAccountTests/
line-limit-plus-one | Sources/StorePrice/FileIO/LineReader.swift | guard to - from <= Self.maximumLineLength else | guard to - from <= Self.maximumLineLength + 1 else | \.CatalogTests/|\.BatchTests/
batch-line-unbounded | Sources/StorePrice/Rendering/Pipeline/PriceLineWorker.swift | guard text.count <= LineReader.maximumLineLength else { | guard text.count <= LineReader.maximumLineLength * 2 else { | \.BatchTests/
temporary-file-left | Sources/StorePrice/FileIO/OutputFile.swift | if let temporaryPath, !committed { | if let temporaryPath, committed { | \.RenderCommandTests/|\.HostileFileTests/
header-path-unchecked | Sources/StorePrice/Snapshots/PriceSnapshot.swift | if let stored, let problem = SnapshotPath.problem(with: stored, inSnapshotAt: path, field: field, folderAllowed: folderAllowed) { | if let stored, let problem = SnapshotPath.problem(with: stored, inSnapshotAt: path, field: field, folderAllowed: folderAllowed), problem.isEmpty { | \.SnapshotCommandTests/
duplicate-json-key-kept | Sources/StorePrice/Catalogs/JSONDuplicateKeys.swift | guard keys[keys.count - 1].insert(string).inserted else { return (path(stack, last: string), topLevelKeys) } | keys[keys.count - 1].insert(string) | \.CatalogTests/|\.HostileFileTests/
xml-nesting-allowed | Sources/StorePrice/Catalogs/XMLPropertyListReader.swift | case ("array"?, "array"), ("array"?, "dict"):\n                throw Problem(reason: PropertyListShape.flatArray) | case ("array"?, "array"), ("array"?, "dict"):\n                break | \.CatalogTests/|\.HostileFileTests/
terminal-unescaped | Sources/StorePrice/Formatting/UnicodeEscaping.swift | guard text.unicodeScalars.contains(where: acts) else { return text } | return text | \.RenderCommandTests/|\.SnapshotCommandTests/
workers-unbounded | Sources/storeprice/AccountsOptions.swift | guard (1...Self.maximumWorkers).contains(workers) else { | guard workers >= 1 else { | \.RenderCommandTests/
message-uncut | Sources/StorePrice/Formatting/StorePriceError.swift | return Self.escapedForMessage(scalars[..<64]) + "…" | return String(self) | \.ErrorMessageTests/|\.HostileFileTests/
path-uncut | Sources/StorePrice/Formatting/StorePriceError.swift | return Self.escapedForMessage(scalars[..<min(lastSlash, 64)]) + "…/" + keptName | return self | \.ErrorMessageTests/
formula-kept | Sources/StorePrice/Formatting/CSVText.swift | let text = raw \|\| !startsLikeAFormula(text) ? text : "'" + text | let text = text | \.SpreadsheetFormulaTests/
batch-echo-raw | Sources/StorePrice/Rendering/Pipeline/PriceLineWorker.swift | escapeNonASCII ? UnicodeEscaping.escapeNonASCII(field) : UnicodeEscaping.escapeForTerminal(field) | field | \.BatchTests/
file-size-signal-kills | Sources/storeprice/StorePriceCommand.swift | signal(SIGXFSZ, SIG_IGN) | _ = 0 | \.WriteFailureTests/
write-failure-ignored | Sources/storeprice/Console.swift | if let failure { throw WriteFailure(path: path, code: failure) } | _ = failure | \.WriteFailureTests/
bulk-lines-not-rebased | Sources/StorePrice/Rendering/BulkRenderer.swift | linesBefore += chunk.results.lines | _ = 0 | \.BulkRendererTests/
bulk-registry-skipped | Sources/StorePrice/Rendering/BulkRenderer.swift | if let first = registry.insert(id, line: absolute) { | if let first = registry.insert(id, line: absolute), first < 0 { | \.BulkRendererTests/|\.ProductRegistryTests/
bulk-products-split | Sources/StorePrice/Rendering/Pipeline/ChunkReader.swift | if let boundary = productBoundary(bytes) { return handOut(chunk, upTo: boundary, last: false) } | if let lastNewline { return handOut(chunk, upTo: lastNewline + 1, last: false) } | \.BulkRendererTests/
bulk-utf8-unchecked | Sources/StorePrice/Rendering/Pipeline/ChunkRenderer+CSV.swift | let text = UnsafeBufferPointer(start: base + lineStart, count: length)\n            if !ascii, !UTF8Validation.isValid(text) { | let text = UnsafeBufferPointer(start: base + lineStart, count: length)\n            if !ascii, text.isEmpty { | \.BulkRendererTests/|\.CatalogTests/|\.HostileFileTests/
bulk-second-price-kept | Sources/StorePrice/Rendering/Pipeline/ChunkRenderer+CSV.swift | guard slots[storefront].stamp != serial else {\n | guard slots[storefront].stamp != serial \|\| true else {\n | \.BulkRendererTests/|\.CatalogTests/
bulk-invalid-dropped | Sources/StorePrice/Rendering/Pipeline/ChunkRenderer.swift | chunk.invalid.append(InvalidProduct(productID: id, reason: .noPrice(storefronts: lastMissing.codes))) | _ = id | \.BulkRendererTests/
unshown-amount-unchecked | Sources/StorePrice/Rendering/Pipeline/ChunkRenderer+JSONLines.swift | return point != 0 && point != amount.count - 1 | return true | \.BulkJSONLinesTests/
utf8-surrogate-accepted | Sources/StorePrice/FileIO/UTF8Validation.swift | let high: UInt8 = lead == 0xED ? 0x9F : 0xBF | let high: UInt8 = 0xBF | \.UTF8ValidationTests/
language-tag-case-kept | Sources/StorePrice/Catalogs/Product.swift | if upper { return false } | _ = upper | \.CatalogTests/
template-quoting-ignored | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if let quoted = Self.quotingApostrophe(in: pattern) { | if let quoted = Self.quotingApostrophe(in: "") { | \.UntrustedTemplateTests/
template-bare-percent-ignored | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if Self.hasPercentSign(beside: PaywallArgument.savingsPercent.name, in: pattern) { | if Self.hasPercentSign(beside: PaywallArgument.savingsPercent.name, in: "") { | \.UntrustedTemplateTests/
template-case-twice-ignored | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if let twice = argument.selectors.first(where: { !cases.insert($0).inserted }) { | if let twice = argument.selectors.first(where: { _ in cases.isEmpty && false }) { | \.UntrustedTemplateTests/
template-control-kept | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if let control = Self.controlCharacter(in: pattern) { | if let control = Self.controlCharacter(in: "") { | \.UntrustedTemplateTests/
wording-printf-kept | Sources/StorePrice/Subscriptions/SubscriptionOffer.swift | if let placeholder = PaywallTemplate.printfPlaceholder(in: phrase) { | if let placeholder = PaywallTemplate.printfPlaceholder(in: "") { | \.UntrustedTemplateTests/
restated-zero-shown | Sources/StorePrice/Paywalls/Paywall.swift | if approximate.price.amount == "0", price.amount != "0" { | if approximate.price.amount == "0", price.amount == "" { | \.UntrustedTemplateTests/
billing-plan-longer-kept | Sources/StorePrice/Paywalls/Paywall.swift | if let billingPlan, billingPlan.period.twelfthsOfADay >= period.twelfthsOfADay { | if let billingPlan, billingPlan.period.twelfthsOfADay > period.twelfthsOfADay * 1000 { | \.UntrustedTemplateTests/
negative-price-missing-value | Sources/storeprice/StorePriceCommand+Paywall.swift | @Option(parsing: .unconditional, help: ArgumentHelp("The price billed each period | @Option(help: ArgumentHelp("The price billed each period | \.UntrustedTemplateTests/
paywall-language-note-missing | Sources/storeprice/StorePriceCommand+Paywall.swift | private func writeLanguageNote(_ priceLocale: PriceLocale) { | private func writeLanguageNote(_ priceLocale: PriceLocale) {\n            if priceLocale.identifier != "" { return } | \.UntrustedTemplateTests/
json-words-are-swifts | Sources/StorePrice/Catalogs/JSONLinesCatalogReader.swift | found = ["a dictionary": "an object", "an array": "a list", "a bool": "true or false"][found] ?? found | _ = found | \.WrongTypeMessageTests/
julian-start | Sources/storeprice/StorePriceCommand+SandboxSchedule.swift | let date = Date(timeIntervalSince1970: Double(seconds)) | let date = (try? Date.ISO8601FormatStyle().parse(String(text))) ?? Date(timeIntervalSince1970: Double(seconds)) | \.DescriptorAndMessageTests/
bulk-id-unescaped | Sources/StorePrice/Rendering/RowLayout.swift | if JSONText.isPlain(id) { | if !id.isEmpty { | \.BulkRenderCommandTests/
asc-end-date-ignored | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | && ($0.end.map { day < $0 } ?? true) |  | \.AppStoreConnectCommandTests/
asc-later-price-shown | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | ($0.start.map { $0 <= day } ?? true) | true | \.AppStoreConnectCommandTests/
asc-next-page-unchecked | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | if let link = document.links?.next { nextLinks.append((link, source)) } |  | \.AppStoreConnectCommandTests/
asc-repeated-resource-kept | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | if let first = places.updateValue(place, forKey: resource.type + "/" + resource.id) { | if let first = (nil as String?) { | \.AppStoreConnectCommandTests/
asc-territory-alias | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | guard storefront.countryCode == territory else { | guard true else { | \.AppStoreConnectCommandTests/
asc-clear-text-anywhere | Sources/storeprice/StorePriceCommand+AppStoreConnect.swift | guard scheme == "https" \|\| (scheme == "http" && loopback) else { | guard scheme == "https" \|\| scheme == "http" else { | \.AppStoreConnectPullTests/
asc-redirect-followed | Sources/storeprice/AppStoreConnect/AppStoreConnectClient.swift | configuration.redirectConfiguration = .disallow |  | \.AppStoreConnectPullTests/
retry-after-date-ignored | Sources/storeprice/AppStoreConnect/AppStoreConnectClient.swift | for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] { | for format in [String]() { | \.AppStoreConnectPullTests/
retry-not-waited | Sources/storeprice/AppStoreConnect/AppStoreConnectClient.swift | Console.error("note: App Store Connect asks to wait \(wait) s (429 for \(Self.shown(url))); retrying")\n                        try await Task.sleep(for: .seconds(wait)) | Console.error("note: App Store Connect asks to wait \(wait) s (429 for \(Self.shown(url))); retrying") | \.AppStoreConnectPullTests/
retry-wait-uncapped | Sources/storeprice/AppStoreConnect/AppStoreConnectClient.swift | guard wait <= longestRetryWait else { | guard wait >= 0 else { | \.AppStoreConnectPullTests/
pull-next-page-unfollowed | Sources/storeprice/AppStoreConnect/AppStoreConnectPull.swift | next = link\n | _ = link\n | \.AppStoreConnectPullTests/
pull-self-link-unchecked | Sources/storeprice/AppStoreConnect/AppStoreConnectPull.swift | if let link = response.selfLink, Self.path(of: link) != Self.path(of: url) { | if let link = response.selfLink, link.isEmpty { | \.AppStoreConnectPullTests/
service-continue-unanswered | Examples/PriceService/Sources/PriceService/RequestHeadChecks.swift | if expectation == "100-continue" { | if expectation == "never" { | expectContinueIsAnsweredBeforeTheBody
service-two-hosts-read | Examples/PriceService/Sources/PriceService/RequestHeadChecks.swift | if head.version == .http1_1 && hosts.count != 1 \|\| hosts.count > 1 { | if head.version == .http1_1 && hosts.isEmpty { | aHeadAServerMustRefuseIsRefused
service-transfer-coding-read | Examples/PriceService/Sources/PriceService/RequestHeadChecks.swift | if let other = codings.first(where: { $0 != "chunked" }) { | if let other = codings.first(where: { $0 == "" }) { | aHeadAServerMustRefuseIsRefused
service-head-without-deadline | Examples/PriceService/Sources/PriceService/RequestHeadChecks.swift | guard handler.waitingForHead else { return } | guard !handler.waitingForHead else { return } | aHeadThatTricklesInIsA408
service-charset-ignored | Examples/PriceService/Sources/PriceService/RenderQuery.swift | guard charset == "utf-8" \|\| charset == "utf8" \|\| charset == "us-ascii" else { | guard !charset.isEmpty else { | aBodyInAnotherCharsetIsA415
service-host-as-swift-value | Examples/PriceService/Sources/PriceService/PriceService.swift | } catch is SocketAddressError, is SocketAddressError.UnknownHost { | } catch is SocketAddressError { | aHostThatDoesNotParseIsSaidInWords
asc-locale-any-text | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | guard LanguageTagSet.isLanguageTag(locale) else { | guard !locale.isEmpty else { | \.HostileFileTests/
asc-point-of-another-territory | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | if let pointTerritory = point.territory, pointTerritory != territory.id { | if let pointTerritory = point.territory, pointTerritory.isEmpty { | \.HostileFileTests/|\.AppStoreConnectCommandTests/
asc-territory-any-type | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | guard territory.type == "territories" else { | guard !territory.type.isEmpty else { | \.HostileFileTests/|\.AppStoreConnectCommandTests/
asc-json-lines-unnamed | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | if lines.count > 1, lines.allSatisfy( | if lines.count > 1_000_000, lines.allSatisfy( | \.HostileFileTests/|\.AppStoreConnectCommandTests/
asc-manual-loses-its-day | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | return startA != startB ? startA < startB : !a.manual && b.manual | return startA != startB ? startA < startB : a.manual && !b.manual | \.AppStoreConnectCommandTests/
asc-new-currency-shown | Sources/StorePrice/Catalogs/AppStoreConnect/AppStoreConnectResponses.swift | if let known = currencies[territory], known.currency != storefront.currency.code {\n                    // | if let known = currencies[territory], known.currency.isEmpty {\n                    // | \.RealWorldAppStoreConnectTests/
json-utf16-read | Sources/StorePrice/Formatting/JSONText.swift | otherEncoding(bytes).map { name, iconv in | otherEncoding([]).map { name, iconv in | \.HostileFileTests/
json-depth-unsaid | Sources/StorePrice/Formatting/JSONText.swift | if depth > maximumDepth { | if depth > 100_000 { | \.HostileFileTests/
golden-without-its-day | Sources/StorePrice/Snapshots/PriceSnapshot.swift | if named == .appStoreConnect { | if named == .appStoreConnect && false { | \.AppStoreConnectCommandTests/
withdrawn-language-kept | Sources/StorePrice/Formatting/LocaleSubtags.swift | language = Self.replacedLanguages[language] ?? language | _ = Self.replacedLanguages[language] | \.MessagesInWordsTests/
renewals-negative-missing-value | Sources/storeprice/StorePriceCommand+SandboxSchedule.swift | @Option(parsing: .unconditional, help: "How many renewals | @Option(help: "How many renewals | \.MessagesInWordsTests/
template-select-key-shown | Sources/StorePrice/Paywalls/PaywallTemplate.swift | switch argument.kind {\n            case .none: | switch argument.kind {\n            case .none where keys.isEmpty: | \.HostileFileTests/|\.MisleadingTemplateTests/
template-misspelt-case-kept | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if let unknown = argument.selectors.first(where: { $0 != "other" && !keys.contains($0) }) { | if let unknown = argument.selectors.first(where: { _ in keys.isEmpty }) { | \.HostileFileTests/|\.MisleadingTemplateTests/
template-percent-across-kept | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if let percent = Self.percentAcrossBranches(in: pattern) { | if let percent = Self.percentAcrossBranches(in: "") { | \.HostileFileTests/|\.MisleadingTemplateTests/
template-isolate-unpaired | Sources/StorePrice/Paywalls/PaywallTemplate.swift | if let isolate = Self.unpairedIsolate(in: pattern) { | if let isolate = Self.unpairedIsolate(in: "") { | \.HostileFileTests/|\.MisleadingTemplateTests/
template-empty-kept | Sources/StorePrice/Paywalls/PaywallTemplate.swift | guard pattern.contains(where: { !$0.isWhitespace }) else { | guard pattern.isEmpty \|\| true else { | \.HostileFileTests/|\.MisleadingTemplateTests/
wording-empty-kept | Sources/StorePrice/Subscriptions/SubscriptionOffer.swift | guard phrase.contains(where: { !$0.isWhitespace }) else { | guard phrase.isEmpty \|\| true else { | \.HostileFileTests/|\.MisleadingTemplateTests/
store-period-any | Sources/StorePrice/Subscriptions/StorePeriods.swift | guard subscriptionPeriods.contains(period) else { | guard period.iso8601 != "P5D" else { | \.HostileFileTests/|\.StorePeriodsTests/|\.MessagesInWordsTests/
offer-periods-uncounted | Sources/StorePrice/Subscriptions/StorePeriods.swift | guard offerPeriodCounts.contains(count) else { | guard count > 0 else { | \.HostileFileTests/|\.StorePeriodsTests/
app-store-rupiah-rounded | Sources/StorePrice/Formatting/AppStoreFormat.swift | guard magnitude >= 4, whole.hasSuffix("000") else { | guard magnitude >= 4 else { | \.AppStoreStyleTests/
small-render-plan-rebuilt | Sources/StorePrice/Rendering/Pipeline/RenderContext.swift | guard free != 0 else { return nil } | guard free == 0 else { return nil } | run: Scripts/check-render-cost.sh
EOF
)

killed=()
survived=()
stale=()
while IFS= read -r line; do
  [ -n "$line" ] || continue
  name=$(printf '%s' "$line" | awk -F' [|] ' '{print $1}')
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  file=$(printf '%s' "$line" | awk -F' [|] ' '{print $2}')
  filter=$(printf '%s' "$line" | awk -F' [|] ' '{print $5}')
  cp "$file" "$work/original"
  if ! MUTANT_LINE="$line" python3 - "$file" <<'PY'
import os, sys
fields = os.environ["MUTANT_LINE"].split(" | ")
text, replacement = (f.replace("\\|", "|").replace("\\n", "\n") for f in fields[2:4])
path = sys.argv[1]
source = open(path, encoding="utf-8").read()
if source.count(text) != 1:
    sys.exit(1)
open(path, "w", encoding="utf-8").write(source.replace(text, replacement))
PY
  then
    echo "mutate: $name: STALE, its text is not once in $file"
    stale+=("$name")
    continue
  fi
  # The example service's sources are built and tested in its own package.
  package=.
  case $file in Examples/PriceService/*) package=Examples/PriceService ;; esac
  if ! swift build --package-path "$package" --build-tests >"$log/$name.build.log" 2>&1; then
    echo "mutate: $name: killed by the compiler"
    killed+=("$name (compiler)")
  # A check that is no test ("run: COMMAND", such as the render cost check) runs as CI runs it.
  elif [[ $filter == "run: "* ]] && timeout 900 bash -c "${filter#run: }" >"$log/$name.test.log" 2>&1; then
    echo "mutate: $name: SURVIVED (${filter#run: } passed)"
    survived+=("$name")
  elif [[ $filter == "run: "* ]]; then
    echo "mutate: $name: killed by ${filter#run: }"
    killed+=("$name (${filter#run: })")
  # A mutant may make a test wait forever (on a FIFO, say): 5 minutes without an end kills it.
  elif timeout 300 swift test --package-path "$package" --skip-build --filter "$filter" >"$log/$name.test.log" 2>&1; then
    echo "mutate: $name: SURVIVED ($filter passed)"
    survived+=("$name")
  else
    killer=$(grep -m1 -oE '✘ Test [A-Za-z0-9_]+' "$log/$name.test.log" | sed 's/✘ Test //' || true)
    echo "mutate: $name: killed by ${killer:-$filter}"
    killed+=("$name (${killer:-$filter})")
  fi
  cp "$work/original" "$file"
done <<<"$mutants"

swift build --build-tests >"$log/restore.log" 2>&1 || true
echo
echo "mutate: ${#killed[@]} killed, ${#survived[@]} survived, ${#stale[@]} stale (logs in $log)"
for name in "${survived[@]}"; do echo "  survived: $name"; done
for name in "${stale[@]}"; do echo "  stale: $name"; done
[ ${#survived[@]} -eq 0 ] && [ ${#stale[@]} -eq 0 ]
