import Testing

@testable import StorePrice

/// A member of the wrong JSON type names its field and what it takes, in words: no Swift type
/// name (`Dictionary<String, Any>`) reaches a user.
@Suite struct WrongTypeMessageTests {
    @Test(arguments: [
        (#"{"product":"a","prices":{"USA":"1"},"title":"Hello"}"#,
         #"catalog 'request body', line 1, field 'title': expected an object of language tags to text, such as {"en":"100 Coins"}; got a string"#),
        (#"{"product":"a","prices":"USA"}"#,
         #"catalog 'request body', line 1, field 'prices': expected an object of storefront codes to amounts as text, such as {"USA":"0.99"}; got a string"#),
        (#"{"product":"a","prices":[1]}"#,
         #"catalog 'request body', line 1, field 'prices': expected an object of storefront codes to amounts as text, such as {"USA":"0.99"}; got a list"#),
        (#"{"product":"a","prices":{"USA":"1"},"period":5}"#,
         "catalog 'request body', line 1, field 'period': expected text in quotes; got a number"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","promotional_offers":{}}"#,
         "catalog 'request body', line 1, field 'promotional_offers': expected a list; got an object"),
        (#"{"product":"a","prices":{"USA":"1"},"period":"P1M","promotional_offers":[5]}"#,
         "catalog 'request body', line 1, field 'promotional_offers[0]': expected an object; got a number"),
    ])
    func aWrongTypeIsNamedInWords(line: String, message: String) throws {
        let renderer = BulkRenderer(targets: RenderTarget.storefronts([try Storefront("USA")]))
        let error = #expect(throws: StorePriceError.self) {
            _ = try renderer.render(catalog: Array(line.utf8), format: .jsonl, name: "request body") { _ in }
        }
        #expect(error?.description == message)
        #expect(error?.description.contains("Dictionary") == false)
    }

    /// A StoreKit configuration's members are named the same way.
    @Test func aStoreKitMemberOfTheWrongTypeIsNamedInWords() throws {
        let renderer = BulkRenderer(targets: RenderTarget.storefronts([try Storefront("USA")]))
        let error = #expect(throws: StorePriceError.self) {
            _ = try renderer.render(catalog: Array(#"{"products":"x"}"#.utf8), format: .storekit, name: "request body") { _ in }
        }
        #expect(error?.description == "catalog 'request body': not a StoreKit configuration (products: expected a list; got a string)")
    }
}
