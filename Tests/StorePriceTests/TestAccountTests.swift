import Foundation
import ICUNumberFormat
import StorePrice
import TestSupport
import Testing

@Suite struct TestAccountTests {
    @Test func theCompiledAccountsAreDataTestAccountsJSON() throws {
        let data = try Data(contentsOf: repositoryFile("Data/test-accounts.json"))
        let file = try TestAccountFile(data: data, source: "Data/test-accounts.json")
        #expect(file.accounts == TestAccountFile.builtIn.accounts, "Data/test-accounts.json changed: run Scripts/embed-data.sh")
    }

    @Test func thereIsOneTesterPerStorefrontAndAFewMore() {
        let accounts = TestAccountFile.builtIn.accounts
        let storefronts = Set(accounts.map(\.storefront))
        #expect(storefronts.count == 175)
        #expect(accounts.contains { $0.deviceLocale != nil })
        #expect(accounts.contains { $0.storeLanguage != nil })
    }

    @Test func everyBuiltInTesterFormatsAPrice() throws {
        for account in TestAccountFile.builtIn.accounts {
            let amount = account.priceLocale.currency.fractionDigits == 0 ? "1200" : "9.99"
            let text = try PriceFormatter(locale: account.priceLocale).format(amount: amount)
            // Against ICU's older API, which reads the currency from the locale's keyword itself.
            expectBytes(text, ICULegacyFormat.currency(amount, locale: account.priceLocale.identifier) ?? "(no result)", "\(account)")
        }
    }

    @Test func aUSTesterOnABritishPhoneSeesDollars() throws {
        let tester = try TestAccountFile.builtIn.account(named: "usa-en-gb-device")
        #expect(tester.deviceLocale == "en_GB")
        #expect(tester.priceLocale.identifier == "en_US@currency=USD")
        expectBytes(try PriceFormatter(locale: tester.priceLocale).format(amount: "0.99"), "$0.99")
        expectBytes(try tester.label("Buy %@", price: "$0.99"), "Buy $0.99")
    }

    @Test(arguments: [
        ("can-fr", "9.99", "9,99\u{00A0}$"),
        ("jpn-en-device", "1200", "\u{FFE5}1,200"),
        ("che-fr", "1234.5", "1\u{202F}234.50\u{00A0}CHF"),
        ("jpn", "160", "\u{FFE5}160"),
    ])
    func storeLanguageSetsThePriceDeviceLocaleDoesNot(_ name: String, _ amount: String, _ expected: String) throws {
        let tester = try TestAccountFile.builtIn.account(named: name)
        expectBytes(try PriceFormatter(locale: tester.priceLocale).format(amount: amount), expected, name)
    }

    @Test(arguments: [
        ("are-en-device", "Buy %@", "9.99", "Buy \u{2068}\u{200F}9.99\u{00A0}د.إ.\u{200F}\u{2069}"),
        ("usa-ar-device", "اشترِ %@", "0.99", "اشترِ \u{2068}$0.99\u{2069}"),
        ("usa-en-gb-device", "Buy %@ (100%% yours)", "0.99", "Buy $0.99 (100% yours)"),
        ("sau", "%@ فقط", "9.99", "\u{200F}٩٫٩٩\u{00A0}ر.س.\u{200F} فقط"),
    ])
    func labelsIsolateThePriceWhenDirectionsDiffer(_ name: String, _ template: String, _ amount: String, _ expected: String)
        throws
    {
        let tester = try TestAccountFile.builtIn.account(named: name)
        let price = try PriceFormatter(locale: tester.priceLocale).format(amount: amount)
        expectBytes(try tester.label(template, price: price), expected, name)
    }

    @Test(arguments: [
        ("Buy", "label 'Buy' has no %@ for the price"),
        ("%@ or %@", "label '%@ or %@' has more than one %@"),
        ("Buy %s", "label 'Buy %s' has a '%' that is neither %@ nor %%"),
        ("100%", "label '100%' has a '%' that is neither %@ nor %%"),
    ])
    func badLabelsAreErrors(_ template: String, _ message: String) throws {
        let tester = try TestAccountFile.builtIn.account(named: "usa")
        #expect {
            try tester.label(template, price: "$1.00")
        } throws: { error in
            expectBytes(String(describing: error), message)
            return true
        }
    }

    /// Every secret word, in the spellings files use, is refused and never echoed.
    @Test(arguments: [
        "token", "Token", "refresh_token", "accessToken", "password", "pass-word", "passwd", "passcode", "secret",
        "clientSecret", "apikey", "api_key", "privateKey", "private-key", "credential", "credentials",
    ])
    func aSecretFieldIsRefusedWhateverItsSpelling(_ field: String) {
        let json = #"[{"name": "a", "email": "a@example.com", "storefront": "USA", "\#(field)": "hunter2"}]"#
        #expect {
            try TestAccountFile(data: Data(json.utf8), source: "bad.json")
        } throws: { error in
            expectBytes(
                String(describing: error),
                "accounts file 'bad.json', entry 1 ('a'): has a '\(field)' field; an accounts file never holds passwords or "
                    + "other secrets (keep them in a keychain or your CI's secret store)")
            return !String(describing: error).contains("hunter2")
        }
    }

    @Test func loadsAUsersAccountsFile() throws {
        let json = """
            [
              {"name": "qa-jp", "email": "qa+jp@example.com", "storefront": "143462"},
              {"name": "qa-ca-fr", "email": "qa+ca@example.com", "storefront": "ca", "store_language": "fr", "device_locale": "en-US"},
              {"name": "qa-us", "email": "qa+us@example.com", "storefront": "USA", "device_locale": null, "description": "plain"}
            ]
            """
        let file = try TestAccountFile(data: Data(json.utf8), source: "qa.json")
        #expect(file.accounts.map(\.name) == ["qa-jp", "qa-ca-fr", "qa-us"])
        #expect(file.accounts[1].priceLocale.identifier == "fr_CA@currency=CAD")
        #expect(file.accounts[1].deviceLocale == "en_US")
        #expect(file.accounts[0].storefront.countryCode == "JPN")
    }

    @Test(arguments: [
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA", "password": "hunter2"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): has a 'password' field; an accounts file never holds passwords or other secrets (keep them in a keychain or your CI's secret store)"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA", "app_specific_Password": "x"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): has a 'app_specific_Password' field; an accounts file never holds passwords or other secrets (keep them in a keychain or your CI's secret store)"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA", "apiKey": "x"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): has a 'apiKey' field; an accounts file never holds passwords or other secrets (keep them in a keychain or your CI's secret store)"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA", "authToken": 1}]"#,
         "accounts file 'bad.json', entry 1 ('a'): has a 'authToken' field; an accounts file never holds passwords or other secrets (keep them in a keychain or your CI's secret store)"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA", "storefont": "JPN"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): unknown field 'storefont'; fields are description, device_locale, email, name, store_language, storefront"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "CAN", "storeLanguage": "fr"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): unknown field 'storeLanguage'; StorePrice now names it 'store_language', as its outputs do"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "CAN", "storeLanguage": "fr", "deviceLocale": "en_US"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): unknown fields 'deviceLocale', 'storeLanguage'; StorePrice now names them 'device_locale', 'store_language', as its outputs do"),
        (#"[]"#, "accounts file 'bad.json': no accounts; an accounts file lists at least one"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA", "store_language": ""}]"#,
         "accounts file 'bad.json', entry 1 ('a'): 'store_language' is empty; leave it out, or give a language such as fr"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "JPX"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): unknown storefront 'JPX'; did you mean JPN?"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA"}, {"name": "a", "email": "b@example.com", "storefront": "JPN"}]"#,
         "accounts file 'bad.json', entry 2 ('a'): duplicate name; entry 1 has it too"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA"}, {"name": "b", "email": "A@example.com", "storefront": "JPN"}]"#,
         "accounts file 'bad.json', entry 2 ('b'): duplicate email 'A@example.com'; entry 1 has it too"),
        (#"[{"name": "a", "email": "not-an-email", "storefront": "USA"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): 'not-an-email' is not an email address"),
        (#"[{"name": "a", "email": "a@localhost", "storefront": "USA"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): 'a@localhost' is not an email address"),
        (#"[{"name": "Has Space", "email": "a@example.com", "storefront": "USA"}]"#,
         "accounts file 'bad.json', entry 1 ('Has Space'): a name is 1 to 64 lower-case letters, digits, '-', '_' or '.', starting with a letter or digit"),
        (#"[{"email": "a@example.com", "storefront": "USA"}]"#,
         "accounts file 'bad.json', entry 1: missing 'name'"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": 143441}]"#,
         "accounts file 'bad.json', entry 1 ('a'): 'storefront' must be a string"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "USA", "device_locale": "xx_YY"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): unsupported locale 'xx_YY': ICU has no locale data for language 'xx'"),
        (#"[{"name": "a", "email": "a@example.com", "storefront": "CAN", "store_language": "tlh"}]"#,
         "accounts file 'bad.json', entry 1 ('a'): unsupported locale 'tlh': ICU has no locale data for language 'tlh'"),
        (#"7"#,
         "accounts file 'bad.json': expected a JSON array of account objects, or one object per line (got a number)"),
        // One object per line is JSON Lines, as `storeprice accounts --format jsonl` writes.
        (#"{"name": "a"}"#, "accounts file 'bad.json', entry 1 ('a'): missing 'email'"),
        ("{\"name\": \"a\", \"email\": \"a@example.com\", \"storefront\": \"USA\"}\n[1]\n",
         "accounts file 'bad.json': line 2 is not an account object (got a list)"),
    ])
    func refusesBadFilesNamingTheEntry(_ json: String, _ message: String) {
        #expect {
            try TestAccountFile(data: Data(json.utf8), source: "bad.json")
        } throws: { error in
            expectBytes(String(describing: error), message)
            return true
        }
    }

    @Test func readsJSONLines() throws {
        let lines = """
            {"name":"qa-jp","email":"qa+jp@example.com","storefront":"JPN","store_language":null,"device_locale":null,"description":null}

            {"name": "qa-ca-fr", "email": "qa+ca@example.com", "storefront": "CAN", "store_language": "fr"}\r
            """
        let file = try TestAccountFile(data: Data(lines.utf8), source: "testers.jsonl")
        #expect(file.accounts.map(\.name) == ["qa-jp", "qa-ca-fr"])
        #expect(file.accounts.map(\.priceLocale.identifier) == ["ja_JP@currency=JPY", "fr_CA@currency=CAD"])
    }

    @Test func refusesTruncatedJSON() {
        #expect {
            try TestAccountFile(data: Data(#"[{"name": "a""#.utf8), source: "cut.json")
        } throws: { error in
            String(describing: error).hasPrefix("accounts file 'cut.json': expected a JSON array of account objects, or one object per line (")
        }
    }

    @Test func aMissingFileIsNamed() {
        #expect {
            try TestAccountFile(contentsOfFile: "/nonexistent/accounts.json")
        } throws: { error in
            String(describing: error).hasPrefix("cannot read '/nonexistent/accounts.json': ")
        }
    }

    @Test func anUnknownNameSuggestsTheClosest() {
        #expect {
            try TestAccountFile.builtIn.account(named: "usa-en-gb")
        } throws: { error in
            expectBytes(String(describing: error), "no test account named 'usa-en-gb' in 'built-in'; did you mean usa-en-gb-device?")
            return true
        }
    }
}
