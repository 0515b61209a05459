#!/usr/bin/env python3
"""Measures ICU's output and the Play style against price strings Google's servers wrote.

    Scripts/check-play-style.py [--storeprice PATH] [--list] EVIDENCE.tsv ...

Each EVIDENCE.tsv has a header row and tab-separated columns country (the Play region, alpha-2),
language (the device or page language, where the source states it), currency, amount (plain
decimal, or LOW..HIGH for a page's range of in-app prices; a row whose provenance names the
page's in-app price range text or per-item text with one amount is run as AMOUNT..AMOUNT), formatted (Google's string),
source_kind, spaces, provenance: the format of ../shared/evidence/play/play-strings.tsv and
Data/play-evidence.tsv.

Every row with a region is run as a user runs it, one process per row, independent of the
library's own tests:
    storeprice format AMOUNT --store play --region CC [--language L] [--currency C] --style S
for S in icu and play, and compared byte for byte, except where the spaces column does not say
`exact (…)` or `no-space`: there U+0020, U+00A0 and U+202F count as one. A row whose source states no
language is run twice: with the region's default language, and with English (most Play Billing
dumps come from English devices). Rows with no region are counted and left out. Prints the
figures, and with --list every difference. Exits 0.
"""
import argparse
import collections
import re
import subprocess

SPACES = re.compile("[\u0020\u00a0\u202f]")


def escaped(text):
    return "".join(ch if 0x20 < ord(ch) < 0x7F else "\\u{%04X}" % ord(ch) for ch in text)


def run(storeprice, row, language, style):
    command = [storeprice, "format", row["amount"], "--store", "play", "--region", row["country"], "--style", style]
    if language:
        command += ["--language", language]
    command += ["--currency", row["currency"]]
    done = subprocess.run(command, capture_output=True, text=True)
    return done.stdout.rstrip("\n") if done.returncode == 0 else "error: " + done.stderr.strip().splitlines()[-1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--storeprice", default=".build/debug/storeprice")
    parser.add_argument("--list", action="store_true", help="list every difference")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    totals = collections.defaultdict(lambda: [0, 0])
    differences = []
    no_region = 0
    for path in args.files:
        with open(path, encoding="utf-8") as file:
            header = file.readline().rstrip("\n").split("\t")
            for number, line in enumerate(file, 2):
                row = dict(zip(header, line.rstrip("\n").split("\t")))
                if not row.get("country"):
                    no_region += 1
                    continue
                # Bytes checked: "exact (how)", or no space at all.
                exact = "exact (" in row["spaces"] or row["spaces"].startswith("no-space")
                # A store page's field of in-app prices: a range, even of one price ($1.99 per item).
                provenance = row.get("provenance", "")
                page_range = ".." in row["amount"] or "in-app price range" in provenance or "per-item text" in provenance
                kind = "range" if page_range else "price"
                if page_range and ".." not in row["amount"]:
                    row["amount"] = row["amount"] + ".." + row["amount"]
                modes = [("stated", row["language"])] if row["language"] else [("default", None), ("en", "en")]
                for mode, language in modes:
                    for style in ("icu", "play"):
                        got = run(args.storeprice, row, language, style)
                        same = got == row["formatted"] or (
                            not exact and SPACES.sub(" ", got) == SPACES.sub(" ", row["formatted"]))
                        key = (style, mode, kind)
                        totals[key][0] += same
                        totals[key][1] += 1
                        if not same:
                            differences.append((style, mode, f"{path}:{number}", row, got))
    print("style  language  kind   matched")
    for key in sorted(totals):
        matched, count = totals[key]
        print(f"{key[0]:<6} {key[1]:<9} {key[2]:<6} {matched}/{count}")
    print(f"rows without a region, left out: {no_region}")
    if args.list:
        for style, mode, place, row, got in differences:
            print(f"{style} {mode} {place} {row['country']} {row['language'] or '-'} {row['currency']} {row['amount']}: "
                  f"Google {escaped(row['formatted'])}, StorePrice {escaped(got)}")


if __name__ == "__main__":
    main()
