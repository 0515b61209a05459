#!/usr/bin/env bash
# Load on the price service from a second process, with wrk (Debian: apt-get install wrk):
# requests per second and latency percentiles of GET /health (the bare route, the baseline),
# GET /v1/price, POST /v1/render (the 31-product sample for USA and JPN), GET /v1/paywall, and
# GET /v1/price again while 48 clients post a large catalog and never read the answer. The
# server is built in release mode, logs each request (LOG_LEVEL=info, to /dev/null), and every
# request shares one process's StorePrice.
#
# Usage: Scripts/load.sh [SECONDS] [CONNECTIONS]     (defaults: 10 s, 16 connections, 2 wrk threads)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-16}
port=${PORT:-8089}
command -v wrk >/dev/null || { echo "load: wrk is missing; on Debian: apt-get install wrk" >&2; exit 1; }

swift build -c release --product PriceServer >/dev/null
PORT=$port LOG_LEVEL=info "$(swift build -c release --show-bin-path)/PriceServer" >/dev/null 2>&1 &
server=$!
work=$(mktemp -d)
stall=""
trap 'kill $server $stall 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done

# The render body: the sample catalog (31 products, 62 rows), rendered for two storefronts.
cat > "$work/render.lua" <<LUA
local f = io.open("../../Data/catalog-sample.jsonl", "rb")
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/x-ndjson"
LUA

run() {
  local name=$1 path=$2
  shift 2
  result=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "$@" "http://127.0.0.1:$port$path")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$result")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$result")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$result")
  errors=$(grep -E "Non-2xx|Socket errors" <<<"$result" | tr -s ' ' | paste -sd ';' || true)
  printf '%-44s %10s req/s   p50 %8s   p99 %8s   %s\n' "$name" "$rps" "$p50" "$p99" "${errors:-no errors}"
}

echo "load: $(nproc) cores, ${seconds}s, $connections connections, server and wrk on one machine"
run "GET /health" "/health"
run "GET /v1/price (JPN, 1200)" "/v1/price?storefront=JPN&amount=1200"
run "POST /v1/render (sample, USA,JPN)" "/v1/render?storefronts=USA,JPN" -s "$work/render.lua"
run "GET /v1/paywall (USA, yearly, compare, trial)" "/v1/paywall?storefront=USA&price=59.99&period=P1Y&compare=4.99:P1W&offer=free:P1W"

# 48 clients that post a catalog of 1,240 products for every storefront (about 80 MB of rows)
# and never read: each holds a render until the write timeout closes its connection, or is
# refused with 503 past the limit of renders at once.
python3 - "$port" "$seconds" <<'PY' &
import socket, sys, time
port, seconds = int(sys.argv[1]), int(sys.argv[2])
lines = open("../../Data/catalog-sample.jsonl", "rb").read().splitlines()
body = b"".join(line.replace(b'"product":"com.example.', b'"product":"copy%d.' % copy) + b"\n" for copy in range(40) for line in lines)
stalled = []
for _ in range(48):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(b"POST /v1/render?storefronts=all HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    stalled.append(s)
time.sleep(seconds + 3)
PY
stall=$!
sleep 2
run "GET /v1/price, 48 clients stalled" "/v1/price?storefront=JPN&amount=1200"
