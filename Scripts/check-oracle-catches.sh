#!/usr/bin/env bash
# The oracle's self-test: Scripts/check-against-icu.sh must fail against a formatter that is wrong
# in one price. A wrapper runs storeprice and changes the last character of one `format --batch`
# line; the check must exit 1 and say that exactly 1 price differs. An oracle that passes whatever
# it finds fails here.
#
# Usage: Scripts/check-oracle-catches.sh    (builds storeprice in debug unless STOREPRICE is set)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "${STOREPRICE:-}" ]; then
  swift build --product storeprice >/dev/null
  STOREPRICE="$(swift build --show-bin-path)/storeprice"
fi
cat > "$work/wrong-storeprice" <<WRAPPER
#!/usr/bin/env bash
if [ "\$1" = format ]; then
  "$STOREPRICE" "\$@" | sed '1000s/.\$/#/'
  exit "\${PIPESTATUS[0]}"
fi
exec "$STOREPRICE" "\$@"
WRAPPER
chmod +x "$work/wrong-storeprice"

set +e
STOREPRICE="$work/wrong-storeprice" Scripts/check-against-icu.sh > "$work/out" 2> "$work/err"
status=$?
set -e
if [ "$status" -ne 1 ] || ! grep -q '^check-against-icu: locales: 1 of [0-9]* prices differ' "$work/err"; then
  echo "check-oracle-catches: FAILED: the oracle did not report the one wrong price (status $status)" >&2
  cat "$work/out" "$work/err" >&2
  exit 1
fi
echo "check-oracle-catches: the oracle reports the one wrong price, status 1"
