#!/usr/bin/env bash
# Load on the price service from a second process, with wrk (Debian: apt-get install wrk):
# requests per second and latency percentiles for GET /v1/price and POST /v1/render, the server
# built in release mode and every request sharing one process's StorePrice.
#
# Usage: Scripts/load.sh [SECONDS] [CONNECTIONS]     (defaults: 10 s, 16 connections, 2 wrk threads)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-16}
port=${PORT:-8089}
command -v wrk >/dev/null || { echo "load: wrk is missing; on Debian: apt-get install wrk" >&2; exit 1; }

swift build -c release --product PriceServer >/dev/null
PORT=$port "$(swift build -c release --show-bin-path)/PriceServer" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/v1/storefronts" >/dev/null && break; sleep 0.2; done

# The render body: the sample catalog (31 products, 62 rows), rendered for two storefronts.
body=$(mktemp)
script=$(mktemp --suffix=.lua)
cp ../../Data/catalog-sample.jsonl "$body"
cat > "$script" <<LUA
local f = io.open("$body", "rb")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/x-ndjson"
LUA

echo "load: $(nproc) cores, ${seconds}s, $connections connections, server and wrk on one machine"
for target in "GET /v1/price?storefront=JPN&amount=1200" "POST /v1/render?storefronts=USA,JPN"; do
  method=${target%% *}
  path=${target#* }
  extra=()
  [ "$method" = POST ] && extra=(-s "$script")
  result=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "${extra[@]}" "http://127.0.0.1:$port$path")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$result")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$result")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$result")
  errors=$(grep -E "Non-2xx|Socket errors" <<<"$result" || true)
  printf '%-45s %10s req/s   p50 %8s   p99 %8s   %s\n' "$target" "$rps" "$p50" "$p99" "${errors:-no errors}"
done
rm -f "$body" "$script"
