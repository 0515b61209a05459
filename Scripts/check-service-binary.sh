#!/usr/bin/env bash
# Checks the price service as it is deployed: Scripts/build-service.sh's static binary, started
# from an empty folder with nothing in its environment but CATALOG, HOST and PORT, as the
# Dockerfile's image runs it. Its routes answer with the rows `storeprice render` writes; a new
# catalog is served after SIGHUP, a bad one keeps the old; a bad catalog at start is one line
# and status 1; SIGTERM ends it with status 0.
#
# Usage: Scripts/check-service-binary.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d)
server=""
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
"$root/Scripts/build-service.sh" "$work/bin"

mkdir "$work/empty" "$work/catalog"
cp "$root/Data/catalog-sample.jsonl" "$work/catalog/catalog.jsonl"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
fail() { echo "service binary: FAILED: $*"; echo "--- its log:"; tail -20 "$work/server.log"; exit 1; }
start() { (cd "$work/empty" && exec env -i CATALOG="$1" HOST=127.0.0.1 PORT="$port" "$work/bin/PriceServer") 2>"$work/server.log" & server=$!; }
ready() { for _ in $(seq 100); do curl -sf "$base/ready" >/dev/null && return 0; sleep 0.1; done; fail "not ready after 10 s"; }
products() { curl -sf "$base/v1/catalog" | python3 -c 'import json, sys; print(json.load(sys.stdin)["products"])'; }

start "$work/catalog/catalog.jsonl"
ready
[ "$(curl -sf "$base/health")" = "ok" ] || fail "/health"
expected=$(grep '"product":"com.example.pro.yearly","storefront":"USA"' "$root/Tests/Fixtures/expected/catalog-sample.jsonl.jsonl")
[ "$(curl -sf "$base/v1/products/com.example.pro.yearly?storefront=USA")" = "$expected" ] || fail "/v1/products/{id} is not the row render writes"
[ "$(curl -sf "$base/v1/products?storefront=USA" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')" = 31 ] || fail "/v1/products"
# (Each answer is read whole before grep: `curl | grep -q` under pipefail fails when grep stops
# reading early and curl is killed by SIGPIPE, as a large /metrics answer showed in CI.)
paywall=$(curl -sf "$base/v1/products/com.example.pro.yearly/paywall?storefront=USA&compare=com.example.pro.weekly")
grep -q '"save":"Save 61%"' <<<"$paywall" || fail "the paywall route"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/v1/products/com.example.nope?storefront=USA")" = 404 ] || fail "an unknown product is not a 404"
icu=$(pkg-config --modversion icu-i18n)
metrics=$(curl -sf "$base/metrics")
grep -q "^storeprice_info{.*icu=\"$icu\"" <<<"$metrics" || fail "/metrics does not name ICU $icu"
grep -q "ICU $icu" "$work/server.log" || fail "the start-up line does not name ICU $icu"
[ "$(products)" = 31 ] || fail "/v1/catalog"

# A new catalog on SIGHUP, written beside the old and renamed over it.
head -30 "$root/Data/catalog-sample.jsonl" > "$work/catalog/next.jsonl" && mv "$work/catalog/next.jsonl" "$work/catalog/catalog.jsonl"
kill -HUP $server
for _ in $(seq 50); do [ "$(products)" = 30 ] && break; sleep 0.1; done
[ "$(products)" = 30 ] || fail "SIGHUP did not serve the new catalog"
# A bad one keeps the old, and says why at error.
echo '{"product":"broken"' > "$work/catalog/next.jsonl" && mv "$work/catalog/next.jsonl" "$work/catalog/catalog.jsonl"
kill -HUP $server
for _ in $(seq 50); do grep -q 'catalog not reloaded' "$work/server.log" && break; sleep 0.1; done
grep -q ' error catalog not reloaded; the old one is still served .*reason=' "$work/server.log" || fail "a bad catalog is not logged at error"
[ "$(products)" = 30 ] || fail "a bad catalog replaced the good one"
kill -TERM $server
status=0; wait $server || status=$?
[ $status = 0 ] || fail "SIGTERM ended it with status $status"
server=""

# A catalog it cannot read, at start: one line, status 1.
start "$work/catalog/missing.jsonl"
status=0; wait $server || status=$?
server=""
[ $status = 1 ] || fail "a missing catalog ended it with status $status, not 1"
[ "$(tail -1 "$work/server.log")" = "PriceServer: cannot read '$work/catalog/missing.jsonl': No such file or directory" ] \
  || fail "a missing catalog's last line: $(tail -1 "$work/server.log")"

echo "service binary: from an empty folder with CATALOG, HOST and PORT only: routes, SIGHUP, a bad catalog kept out, status 1 and 0"
