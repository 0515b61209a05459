#!/usr/bin/env bash
# Runs storeprice on every hostile file in Tests/Fixtures/hostile/ and on generated 100 MB single
# lines, and checks what `swift test` cannot measure: the peak memory of each run stays under
# LIMIT_MB (default 150), no output file is left, and the one error line stays short (values are
# quoted cut at 64 characters). HostileFileTests checks the messages.
#
# Usage: Scripts/check-hostile-files.sh     (builds storeprice in debug unless STOREPRICE is set)
set -euo pipefail
cd "$(dirname "$0")/.."
limit_mb=${LIMIT_MB:-150}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "${STOREPRICE:-}" ]; then
  swift build --product storeprice >/dev/null
  STOREPRICE="$(swift build --show-bin-path)/storeprice"
fi

python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
filler = "x" * (100 << 20)
open(f"{work}/long.jsonl", "w").write('{"product":"a","prices":{"USA":"0.99"},"title":{"en":"' + filler + '"}}\n')
open(f"{work}/long.csv", "w").write("product,storefront,price\na" + filler + ",USA,0.99\n")
open(f"{work}/long.storekit", "w").write('{"products":[{"productID":"' + filler + '"}]}')
open(f"{work}/long.batch", "w").write("en_US@currency=USD\t" + "1" * (100 << 20) + "\n")
open(f"{work}/long-language", "w").write("a" * 100000 + "_US@currency=USD")
PY

failures=0
check() {
  local name=$1 flag=$2; shift 2
  local out="$work/out/prices.jsonl"
  rm -rf "$work/out"; mkdir -p "$work/out"
  set +e
  if [ "$flag" = --output-none ]; then
    /usr/bin/time -f "%M" -o "$work/rss" "$@" >"$work/out/stdout" 2>"$work/err"
  else
    /usr/bin/time -f "%M" -o "$work/rss" "$@" "$flag" "$out" >/dev/null 2>"$work/err"
  fi
  local status=$?
  set -e
  # Standard output, when it is what the command writes, is empty: nothing forged, nothing raw.
  [ -s "$work/out/stdout" ] || rm -f "$work/out/stdout"
  local rss_mb=$(( $(tail -1 "$work/rss") / 1024 ))
  local left
  left=$(ls -A "$work/out")
  if [ "$status" -ne 65 ] || [ "$rss_mb" -ge "$limit_mb" ] || [ -n "$left" ] || [ "$(wc -l < "$work/err")" -ne 1 ] \
    || [ "$(wc -c < "$work/err")" -gt 1000 ]; then
    echo "hostile: FAILED $name: status $status, ${rss_mb} MB, left '${left}', stderr: $(head -c 300 "$work/err")"
    failures=$((failures + 1))
  else
    printf 'hostile: %-36s status 65, %4d MB, one line, nothing left\n' "$name" "$rss_mb"
  fi
}

for file in Tests/Fixtures/hostile/*; do
  name=$(basename "$file")
  case $name in
    *accounts.json) check "$name" --output "$STOREPRICE" render Data/catalog-sample.jsonl --accounts "$file" ;;
    *products.*) check "$name" --output "$STOREPRICE" render Data/catalog-sample.jsonl --products "$file" ;;
    *snapshot*) check "$name" --report "$STOREPRICE" verify "$file" ;;
    # Paywalls write no file: the output checked is standard output, which must stay empty.
    *templates.json) check "$name" --output-none "$STOREPRICE" paywall --storefront USA --price 59.99 --period P1Y \
      --compare 4.99:P1W --offer free:P1W --templates "$file" --name line ;;
    *offer-wording.json) check "$name" --output-none "$STOREPRICE" paywall --storefront USA --price 59.99 --period P1Y \
      --offer free:P1W --offer-wording "$file" --template '{offer}' ;;
    *) check "$name" --output "$STOREPRICE" render "$file" --storefronts USA,JPN ;;
  esac
done
for name in long.jsonl long.csv long.storekit; do
  check "100 MB line: $name" --output "$STOREPRICE" render "$work/$name" --storefronts USA
done
check "100 MB line: format --batch" --output sh -c "exec \"$STOREPRICE\" format --batch < \"$work/long.batch\"" sh
check "100,000-letter language: format" --output sh -c "exec \"$STOREPRICE\" format 1 --locale \"\$(cat \"$work/long-language\")\"" sh
check "100 MB line: long.jsonl on stdin" --output sh -c "\"$STOREPRICE\" render - --catalog-format jsonl --storefronts USA < \"$work/long.jsonl\" \"\$@\"" sh

[ "$failures" -eq 0 ] || { echo "hostile: $failures failed"; exit 1; }
echo "hostile: every file refused with status 65, under ${limit_mb} MB, with nothing left behind"
