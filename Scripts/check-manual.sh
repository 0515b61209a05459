#!/usr/bin/env bash
# Writes the man page as the README says (Scripts/generate-manual.py) and checks it: every
# non-ASCII character of the help kept (the ￥ of `￥1,200`, the Japanese examples), and no mdoc
# warning from mandoc's linter (groff's when mandoc is missing).
#
# Usage: Scripts/check-manual.sh    (builds storeprice in debug unless STOREPRICE is set)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${STOREPRICE:-}" ]; then
  swift build --product storeprice >/dev/null
  STOREPRICE="$(swift build --show-bin-path)/storeprice"
fi
python3 Scripts/generate-manual.py --storeprice "$STOREPRICE" --output "$work/storeprice.1" >/dev/null
for kept in '\[uFFE5]1,200' '\[u00A5]800' '\[u9031]\[u9593]\[u7121]\[u6599]'; do
  grep -qF "$kept" "$work/storeprice.1" || { echo "check-manual: '$kept' is missing from the man page" >&2; exit 1; }
done
if command -v mandoc >/dev/null 2>&1; then
  mandoc -T lint -W warning "$work/storeprice.1" > "$work/lint" 2>&1 || true
  linter=mandoc
else
  groff -ww -mdoc -Tutf8 -z "$work/storeprice.1" > "$work/lint" 2>&1 || true
  linter=groff
fi
if [ -s "$work/lint" ]; then
  echo "check-manual: $linter warns:" >&2
  cat "$work/lint" >&2
  exit 1
fi
echo "check-manual: storeprice.1 keeps every character, no $linter warning ($(wc -l < "$work/storeprice.1") lines)"
