#!/usr/bin/env python3
"""Writes the App Store style's coverage table into its DocC article.

    Scripts/app-store-coverage.py [--storeprice PATH]

Reads Data/app-store-style.json and, for each storefront (and each store language with a rule
of its own), asks the CLI for an example price, then replaces the table between the
`<!-- coverage -->` markers of Sources/StorePrice/StorePrice.docc/AppStoreStyle.md. Run it after
editing the data; `swift test` (AppStoreStyleTests) fails while the table and the data disagree.
"""
import argparse
import json
import re
import subprocess

ARTICLE = "Sources/StorePrice/StorePrice.docc/AppStoreStyle.md"


def example(storeprice, code, digits, language=None):
    amount = "12345" if digits == 0 else "1234.5"
    command = [storeprice, "format", amount, "--storefront", code, "--style", "app-store", "--escape"]
    if language:
        command += ["--language", language]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def large(entry):
    """The rule at 1,000 or more: seen up to an amount (and what is not), or unverified."""
    marks = entry.get("large_amounts") or {}
    if "seen" not in marks:
        return "unverified"
    shown = "seen to {:,}".format(marks["up_to"])
    return shown + ("; unverified: " + marks["unverified"] if "unverified" in marks else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storeprice", default=".build/debug/storeprice")
    args = parser.parse_args()
    data = json.load(open("Data/app-store-style.json", encoding="utf-8"))
    lines = [
        "| Storefront | Currency | Pages in | Apple writes 1234.5 (or 12345) | Numbers | Basis | 1,000 or more |",
        "|---|---|---|---|---|---|---|",
    ]
    for code in sorted(data["storefronts"]):
        entry = data["storefronts"][code]
        rule = " (%s)" % entry["rule"] if entry.get("rule") else ""
        shown = example(args.storeprice, code, entry.get("fraction_digits"))
        lines.append("| %s %s | %s | %s | `%s`%s | %s | %s, %d cited | %s |" % (
            code, entry["name"], entry["currency"], entry["language"], shown, rule,
            entry.get("numbers") or "ICU", entry["basis"], len(entry["evidence"]), large(entry)))
        for language, nested in sorted(entry.get("languages", {}).items()):
            shown = example(args.storeprice, code, nested.get("fraction_digits"), language)
            lines.append("| %s in %s | %s | %s | `%s` | %s | %s, %d cited | %s |" % (
                code, language, entry["currency"], language, shown, nested.get("numbers") or "ICU",
                nested["basis"], len(nested["evidence"]), large(nested)))
    text = open(ARTICLE, encoding="utf-8").read()
    table = "<!-- coverage -->\n" + "\n".join(lines) + "\n<!-- /coverage -->"
    text, count = re.subn(r"<!-- coverage -->.*?<!-- /coverage -->", lambda _: table, text, flags=re.S)
    if count != 1:
        raise SystemExit("app-store-coverage: %s has no <!-- coverage --> section" % ARTICLE)
    open(ARTICLE, "w", encoding="utf-8").write(text)
    print("wrote %d rows to %s" % (len(lines) - 2, ARTICLE))


if __name__ == "__main__":
    main()
