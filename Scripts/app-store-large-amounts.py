#!/usr/bin/env python3
"""Marks, in Data/app-store-style.json, whether each storefront's rule is verified at 1,000 or more.

    Scripts/app-store-large-amounts.py [--storeprice PATH] [--evidence TSV ...]

Price points pass 1,000 in most currencies, where a rule's grouping separator (and Indonesia's
ribu and juta, India's lakhs) first shows. For each storefront, this looks for Apple's strings of
an amount of 1,000 or more in the storefront's currency now, in the evidence files (Data's own and,
where it is beside the repository, ../shared/evidence/app-store-strings.tsv and
app-store-large-amounts.tsv), and keeps those the
App Store style writes in the storefront's default language, spaces aside (many strings were
transcribed with their whitespace unverified). It writes the field
`large_amounts` of each storefront: {"seen": "CUR AMOUNT → STRING", "up_to": N} citing the largest
such string, or {"unverified": why}. `up_to` is the largest amount seen: above it, and for forms
the strings do not show, the rule is unverified, which the coverage table says. Then run
Scripts/embed-data.sh, Scripts/app-store-coverage.py and swift test.
"""
import argparse
import csv
import json
import os
import subprocess
import unicodedata

DATA = "Data/app-store-style.json"


def spaces(text):
    return "".join(" " if unicodedata.category(c) == "Zs" else c for c in text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--storeprice", default=".build/debug/storeprice")
    parser.add_argument("--evidence", nargs="*", default=["Data/app-store-evidence.tsv", "../shared/evidence/app-store-strings.tsv", "../shared/evidence/app-store-large-amounts.tsv"])
    args = parser.parse_args()
    listing = subprocess.run([args.storeprice, "storefronts", "--format", "csv"], capture_output=True, text=True, check=True).stdout
    alpha3 = {row["alpha2"]: row for row in csv.DictReader(listing.splitlines())}
    rows = []
    for path in args.evidence:
        if not os.path.exists(path):
            print("app-store-large-amounts: %s is not here; its strings are not used" % path)
            continue
        for line in open(path, encoding="utf-8"):
            cells = line.rstrip("\n").split("\t")
            if len(cells) >= 4 and not line.startswith("#"):
                rows.append(cells[:4])
    data = json.load(open(DATA, encoding="utf-8"))
    for code, entry in data["storefronts"].items():
        candidates = []
        for alpha2, currency, amount, string in rows:
            storefront = alpha3.get(alpha2)
            if not storefront or storefront["alpha3"] != code or currency != entry["currency"]:
                continue
            try:
                value = float(amount)
            except ValueError:
                continue
            if value >= 1000:
                candidates.append((value, amount, string))
        seen = None
        for value, amount, string in sorted(set(candidates), reverse=True):
            written = subprocess.run(
                [args.storeprice, "format", amount, "--storefront", code, "--style", "app-store"],
                capture_output=True, text=True).stdout.rstrip("\n")
            # Many strings were transcribed with their spaces unverified: a space and a no-break
            # space read alike; digits, separators and signs must be the same.
            if spaces(written) == spaces(string):
                seen = (value, amount, string)
                break
        if seen:
            value, amount, string = seen
            entry["large_amounts"] = {"seen": "%s %s → %s" % (entry["currency"], amount, string), "up_to": int(value)}
            # Forms that no string shows, however large the amounts seen.
            if entry.get("rule") == "indonesian-thousands" and not any(
                    float(other) % 1000 for _, other, text in candidates if spaces(text).startswith("Rp ") and "ribu" not in text and "juta" not in text):
                entry["large_amounts"]["unverified"] = "amounts that are not whole thousands"
            if entry.get("numbers") == "en_IN" and value < 100000:
                entry["large_amounts"]["unverified"] = "lakhs, from 1,00,000"
        elif candidates:
            entry["large_amounts"] = {"unverified": "Apple's strings of 1,000 or more from this storefront differ from the rule (older pages or another language)"}
        else:
            entry["large_amounts"] = {"unverified": "no Apple string of 1,000 or more from this storefront"}
    # As the file writes them: invisible characters and the fullwidth won sign escaped, the rest as is.
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    for character in sorted({c for c in text if unicodedata.category(c) in ("Zs", "Cf", "Cc") and c not in " \n"} | {"\uffe6"}):
        text = text.replace(character, "\\u%04x" % ord(character))
    open(DATA, "w", encoding="utf-8").write(text)
    seen = sum(1 for entry in data["storefronts"].values() if "seen" in entry["large_amounts"])
    print("app-store-large-amounts: %d of %d storefronts seen at 1,000 or more" % (seen, len(data["storefronts"])))


if __name__ == "__main__":
    main()
