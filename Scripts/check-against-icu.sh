#!/usr/bin/env bash
# Checks `storeprice format --batch --rounding half-even` against ICU's C API, byte for byte.
# The reference is Scripts/icu-oracle.c, a small C program that shares no code with StorePrice and
# hands ICU each price locale exactly as written, `@currency=` keyword included, through two APIs:
# the modern `unumf` (the currency read from the keyword with uloc_getKeywordValue) and the older
# `unum_open(UNUM_CURRENCY, locale)`, which finds the currency in the keyword by itself (with
# CLDR's minimum grouping digits asked for). Every price must match both.
#
# Two grids:
#   locales:     every locale ICU lists that has a region and no variant (557 in ICU 72), each in
#                its region's own currency (where the region has one), USD, EUR and one more,
#                rotating through 0-, 2- and 3-digit currencies, × 13 amounts: 0, negatives,
#                7 and 8 integer digits, and half-even ties at 0, 2 and 3 fraction digits;
#   storefronts: every storefront's default price locale (175) × every storefront currency plus
#                KWD and BHD (45) × 25 amounts (ties, sub-cent values, negatives, large values).
# Amounts whose negative value rounds to zero are left out of both: StorePrice writes them
# without a sign (`$0.00`, as for `-0`), where ICU writes `-$0.00`; its tests cover that rule.
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

# The locales grid.
"$work/icu-oracle" locales > "$work/icu-locales"
extras="JPY GBP KWD KRW CHF BHD CLP INR JOD ISK CNY TND"
locale_amounts="0 0.99 9.99 2.5 0.125 1.0005 2.675 -1234.5 -3.5 1234567.891 12345678.5 99999.995 1000000"
awk -F'\t' -v extras="$extras" -v amounts="$locale_amounts" '
  BEGIN { nextras = split(extras, extra, " "); namounts = split(amounts, amount, " ") }
  {
    delete seen
    n = 0
    if ($2 != "") list[++n] = $2
    list[++n] = "USD"; list[++n] = "EUR"; list[++n] = extra[(NR - 1) % nextras + 1]
    for (i = 1; i <= n; i++) {
      if (list[i] in seen) continue
      seen[list[i]] = 1
      for (a = 1; a <= namounts; a++) printf "%s@currency=%s\t%s\n", $1, list[i], amount[a]
    }
  }' "$work/icu-locales" > "$work/grid-locales"

# The storefronts grid.
amounts="0 0.01 0.5 0.99 1 1.5 2.5 9.99 10 99.99 100 1234.5 12345.678 -1.99 -0.51 0.005 0.015 0.125 1000000 123456789.99 0.0001 99999.995 2.675 160000 1.2345"
"$STOREPRICE" storefronts --format csv | tail -n +2 | cut -d, -f5 | sort -u > "$work/currencies"
printf 'KWD\nBHD\n' >> "$work/currencies"
"$STOREPRICE" storefronts --format csv | tail -n +2 | awk -F, '{print $NF}' | sed 's/@currency=.*//' > "$work/locales"
while read -r locale; do
  while read -r currency; do
    for amount in $amounts; do
      printf '%s@currency=%s\t%s\n' "$locale" "$currency" "$amount"
    done
  done < "$work/currencies"
done < "$work/locales" > "$work/grid-storefronts"

status=0
for grid in locales storefronts; do
  "$STOREPRICE" format --batch --rounding half-even < "$work/grid-$grid" > "$work/actual-$grid" || true
  lines=$(wc -l < "$work/grid-$grid")
  for api in unumf unum; do
    if [ "$api" = unum ]; then
      "$work/icu-oracle" unum < "$work/grid-$grid" > "$work/expected-$grid-$api"
    else
      "$work/icu-oracle" < "$work/grid-$grid" > "$work/expected-$grid-$api"
    fi
    if cmp -s "$work/expected-$grid-$api" "$work/actual-$grid"; then
      detail=""
      [ "$grid" = locales ] && detail=" ($(wc -l < "$work/icu-locales") ICU locales with a region, $(cut -f1 "$work/grid-$grid" | sort -u | wc -l) price locales)"
      echo "check-against-icu: $grid: $lines of $lines prices identical to ICU's $api output$detail"
    else
      different=$(diff "$work/expected-$grid-$api" "$work/actual-$grid" | grep -c '^>' || true)
      echo "check-against-icu: $grid: $different of $lines prices differ from ICU's $api output; the first" \
        "(< ICU, > storeprice):" >&2
      diff "$work/expected-$grid-$api" "$work/actual-$grid" | head -20 >&2 || true
      status=1
    fi
  done
done
exit $status
