#!/usr/bin/env bash
# Checks StorePriceTesting the way a user's package uses it: Examples/GoldenPrices depends on
# StorePrice by path and tests its catalog against a golden snapshot, with Swift Testing and XCTest.
#   1. `swift test` passes on the committed golden;
#   2. with one golden string edited, `swift test` fails and prints the escaped diff naming the
#      product and account;
#   3. `STOREPRICE_RECORD=failed swift test` re-records the golden and passes, restoring the
#      committed bytes;
#   4. declared with `traits: []`, as the README shows, StorePrice brings swift-log and no other
#      package: nothing of the CLI's network stack is resolved.
# The example is copied to a temporary directory, so the checkout is never modified.
#
# Usage: Scripts/check-example-package.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$root/Examples/GoldenPrices" "$work/GoldenPrices"
rm -rf "$work/GoldenPrices/.build"
cd "$work/GoldenPrices"
sed -i "s|path: \"../..\"|path: \"$root\"|" Package.swift
golden=Tests/Golden/catalog.jsonl
cp "$golden" "$work/committed.jsonl"

echo "example: swift test on the committed golden"
swift test >"$work/pass.log" 2>&1 || { cat "$work/pass.log"; echo "example: FAILED: the committed golden did not pass"; exit 1; }

echo "example: swift test with JPN's coins.100 edited from U+FFE5 to U+00A5"
sed -i '/"product":"com.example.coins.100","account":"jpn"/{s/"formatted":"￥160"/"formatted":"¥160"/;s/"escaped":"\\\\u{FFE5}160"/"escaped":"\\\\u{00A5}160"/}' "$golden"
if swift test >"$work/fail.log" 2>&1; then
  cat "$work/fail.log"; echo "example: FAILED: an edited golden passed"; exit 1
fi
expected='ja_JP@currency=JPY  com.example.coins.100  ¥160 → ￥160  (\u{00A5} → \u{FFE5})  for jpn'
# Once in XCTest's failure and once in Swift Testing's issue.
count=$(grep -cF "$expected" "$work/fail.log" || true)
[ "$count" -eq 2 ] || { cat "$work/fail.log"; echo "example: FAILED: expected the diff line twice, found it $count times"; exit 1; }
grep -F "$expected" "$work/fail.log" | head -1 | sed 's/^/  /'

resolved=$(ls .build/checkouts | paste -sd ' ')
[ "$resolved" = "swift-log" ] || { echo "example: FAILED: with traits: [] StorePrice should bring swift-log alone; resolved: $resolved"; exit 1; }
echo "example: with traits: [], StorePrice brings $resolved alone"

echo "example: STOREPRICE_RECORD=failed swift test re-records the golden"
STOREPRICE_RECORD=failed swift test >"$work/record.log" 2>&1 || { cat "$work/record.log"; echo "example: FAILED: recording did not pass"; exit 1; }
cmp "$golden" "$work/committed.jsonl" || { echo "example: FAILED: the re-recorded golden differs from the committed one"; exit 1; }
swift test >"$work/again.log" 2>&1 || { cat "$work/again.log"; echo "example: FAILED: the re-recorded golden did not pass"; exit 1; }

echo "example: passed, failed with the diff, and re-recorded as documented"
