#!/usr/bin/env bash
# Checks `storeprice format --batch --rounding half-even` against ICU's unumf C API, byte for
# byte, over a grid of price locales × currencies × amounts:
#   every storefront's default price locale (175) × every storefront currency plus KWD and
#   BHD (45) × 25 amounts (ties, sub-cent values, negatives, large values) = 196,875 prices.
# The reference is Scripts/icu-oracle.c, a small C program that shares no code with StorePrice.
#
# Usage: Scripts/check-against-icu.sh    (builds storeprice in debug unless STOREPRICE is set)
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "${STOREPRICE:-}" ]; then
  swift build --product storeprice >/dev/null
  STOREPRICE="$(swift build --show-bin-path)/storeprice"
fi
cc Scripts/icu-oracle.c $(pkg-config --cflags --libs icu-i18n) -o "$work/icu-oracle"

amounts="0 0.01 0.5 0.99 1 1.5 2.5 9.99 10 99.99 100 1234.5 12345.678 -1.99 -0.5 0.005 0.015 0.125 1000000 123456789.99 0.0001 99999.995 2.675 160000 1.2345"
"$STOREPRICE" storefronts --format csv | tail -n +2 | cut -d, -f5 | sort -u > "$work/currencies"
printf 'KWD\nBHD\n' >> "$work/currencies"
"$STOREPRICE" storefronts --format csv | tail -n +2 | awk -F, '{print $NF}' | sed 's/@currency=.*//' > "$work/locales"

while read -r locale; do
  while read -r currency; do
    for amount in $amounts; do
      printf '%s@currency=%s\t%s\n' "$locale" "$currency" "$amount"
    done
  done < "$work/currencies"
done < "$work/locales" > "$work/grid"

"$work/icu-oracle" < "$work/grid" > "$work/expected"
"$STOREPRICE" format --batch --rounding half-even < "$work/grid" > "$work/actual"

lines=$(wc -l < "$work/grid")
if cmp -s "$work/expected" "$work/actual"; then
  echo "check-against-icu: $lines of $lines prices identical to ICU's unumf output"
else
  different=$(diff "$work/expected" "$work/actual" | grep -c '^>' || true)
  echo "check-against-icu: $different of $lines prices differ from ICU's unumf output; the first:" >&2
  diff "$work/expected" "$work/actual" | head -20 >&2 || true
  exit 1
fi
