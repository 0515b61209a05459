#!/usr/bin/env python3
"""Measures the App Store style against Apple's own price strings.

    Scripts/check-app-store-style.py [--storeprice PATH] [--list] EVIDENCE.tsv ...

Each EVIDENCE.tsv holds one string a line, tab-separated, no header:
country (alpha-2), currency, price (plain decimal), formatted (Apple's string), source kind,
provenance; a `lang=xx-YY` in the provenance names the page's language. This is the format of
../shared/evidence/app-store-strings.tsv and Data/app-store-evidence.tsv.

Every row is run as a user runs it, one process per row, independent of the library's own tests:
    storeprice format PRICE --storefront CC --style app-store [--language L]
and compared byte for byte, except for source kinds whose spaces could not be told apart
(`*-wsunverified`, `asc-pricing-matrix-*`), where U+0020, U+00A0 and U+202F count as one.
Prints the figure per source kind, and with --list every difference. Exits 0.
"""
import argparse
import collections
import re
import subprocess
import sys

SPACES = re.compile("[\u0020\u00a0\u202f]")


def spaces_unverified(kind):
    return kind.endswith("-wsunverified") or kind.startswith("asc-pricing-matrix")


def escaped(text):
    return "".join(ch if 0x20 < ord(ch) < 0x7F else "\\u{%04X}" % ord(ch) for ch in text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--storeprice", default=".build/debug/storeprice")
    parser.add_argument("--list", action="store_true", help="list every difference")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    totals = collections.defaultdict(lambda: [0, 0])
    differences = []
    for path in args.files:
        with open(path, encoding="utf-8") as file:
            for number, line in enumerate(file, 1):
                fields = line.rstrip("\n").split("\t")
                if len(fields) < 6:
                    continue
                country, currency, price, expected, kind, provenance = fields[:6]
                command = [args.storeprice, "format", price, "--storefront", country, "--style", "app-store"]
                language = re.search(r"\blang=([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\b", provenance)
                if language:
                    command += ["--language", language.group(1)]
                run = subprocess.run(command, capture_output=True, text=True)
                got = run.stdout.rstrip("\n") if run.returncode == 0 else "error: " + run.stderr.strip()
                same = got == expected
                if not same and spaces_unverified(kind):
                    same = SPACES.sub(" ", got) == SPACES.sub(" ", expected)
                totals[kind][0] += same
                totals[kind][1] += 1
                if not same:
                    differences.append((path, number, kind, country, currency, price, expected, got))
    matched = sum(t[0] for t in totals.values())
    count = sum(t[1] for t in totals.values())
    for kind in sorted(totals):
        good, all_ = totals[kind]
        print("%-32s %4d of %4d  %5.1f%%" % (kind, good, all_, 100.0 * good / all_))
    print("%-32s %4d of %4d  %5.1f%%" % ("all", matched, count, 100.0 * matched / max(count, 1)))
    if args.list:
        for path, number, kind, country, currency, price, expected, got in differences:
            print("%s:%d %s %s %s %s: Apple '%s', StorePrice '%s'"
                  % (path, number, kind, country, currency, price, escaped(expected), escaped(got)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
