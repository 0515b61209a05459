#!/usr/bin/env bash
# Load on the price service from a second process, with wrk (Debian: apt-get install wrk):
# requests per second and latency percentiles of GET /health (the bare route, the baseline),
# GET /v1/price, the served catalog's routes (one product's row, every product of a storefront,
# a subscription's paywall), POST /v1/render (the 31-product sample for USA and JPN),
# GET /v1/paywall, GET /v1/price while 48 clients post a large catalog and never read the
# answer, and a product's row while the catalog is reloaded (SIGHUP) every second. Then a catalog
# of 10,000 products priced in all 175 storefronts: its load time and the server's memory.
# The server is built in release mode, serves CATALOG=Data/catalog-sample.jsonl, and logs each
# request (LOG_LEVEL=info, to a file, read for the reload lines).
#
# Usage: Scripts/load.sh [SECONDS] [CONNECTIONS]     (defaults: 10 s, 16 connections, 2 wrk threads)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
connections=${2:-16}
port=${PORT:-8089}
command -v wrk >/dev/null || { echo "load: wrk is missing; on Debian: apt-get install wrk" >&2; exit 1; }

swift build -c release --product PriceServer >/dev/null
server_bin="$(swift build -c release --show-bin-path)/PriceServer"
work=$(mktemp -d)
server=""
stall=""
trap 'kill $server $stall 2>/dev/null || true; rm -rf "$work"' EXIT
cp ../../Data/catalog-sample.jsonl "$work/catalog.jsonl"
CATALOG="$work/catalog.jsonl" PORT=$port LOG_LEVEL=info "$server_bin" >/dev/null 2>"$work/server.log" &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break; sleep 0.2; done

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
  printf '%-52s %10s req/s   p50 %8s   p99 %8s   %s\n' "$name" "$rps" "$p50" "$p99" "${errors:-no errors}"
}

echo "load: $(nproc) cores, ${seconds}s, $connections connections, server and wrk on one machine"
run "GET /health" "/health"
run "GET /v1/price (JPN, 1200)" "/v1/price?storefront=JPN&amount=1200"
run "GET /v1/products/{id} (yearly, USA)" "/v1/products/com.example.pro.yearly?storefront=USA"
run "GET /v1/products (31 products, JPN)" "/v1/products?storefront=JPN"
run "GET /v1/products/{id}/paywall (yearly, USA)" "/v1/products/com.example.pro.yearly/paywall?storefront=USA&compare=com.example.pro.weekly"
run "POST /v1/render (sample, USA,JPN)" "/v1/render?storefronts=USA,JPN" -s "$work/render.lua"
run "GET /v1/paywall (USA, yearly, compare, trial)" "/v1/paywall?storefront=USA&price=59.99&period=P1Y&compare=4.99:P1W&offer=free:P1W"

# A reload every second under load: no request may fail, and every one is answered from a
# whole catalog (the swap is atomic; the Swift test checks the bodies).
( for _ in $(seq "$seconds"); do sleep 1; kill -HUP $server; done ) &
reloader=$!
run "GET /v1/products/{id}, SIGHUP every second" "/v1/products/com.example.pro.yearly?storefront=USA"
wait $reloader
echo "load: $(grep -c 'catalog loaded' "$work/server.log") catalog loads (1 at start), $(grep -c 'catalog not reloaded' "$work/server.log" || true) failed"

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
kill $stall $server 2>/dev/null || true
wait $server 2>/dev/null || true

# The App Store's limit: 10,000 products, each priced in all 175 storefronts (24 MB of JSON Lines).
python3 - "$work/catalog-10000.jsonl" <<'PY'
import json, sys
sample = [json.loads(line) for line in open("../../Data/catalog-sample.jsonl")]
priced = [product for product in sample if len(product["prices"]) == 175 and "period" not in product]
with open(sys.argv[1], "w") as out:
    for i in range(10000):
        source = priced[i % len(priced)]
        line = {"product": "com.example.bulk.%05d" % i, "prices": source["prices"], "title": source.get("title", {})}
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
PY
rss() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }
PORT=$port "$server_bin" >/dev/null 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.2; done
empty=$(rss $server)
kill $server; wait $server 2>/dev/null || true
CATALOG="$work/catalog-10000.jsonl" PORT=$port LOG_LEVEL=info "$server_bin" >/dev/null 2>"$work/large.log" &
server=$!
for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break; sleep 0.1; done
loaded=$(rss $server)
took=$(grep 'catalog loaded' "$work/large.log" | sed -E 's/.*duration_ms=([0-9.]+).*/\1/')
kill -HUP $server
for _ in $(seq 300); do [ "$(grep -c 'catalog loaded' "$work/large.log")" -ge 2 ] && break; sleep 0.1; done
reloaded=$(rss $server)
echo "load: 10,000 products x 175 storefronts ($(du -m "$work/catalog-10000.jsonl" | cut -f1) MB): loaded in ${took} ms; server memory $((empty / 1024)) MiB without a catalog, $((loaded / 1024)) MiB with it, $((reloaded / 1024)) MiB after a reload"
run "GET /v1/products/{id}, 10,000-product catalog" "/v1/products/com.example.bulk.04321?storefront=JPN"
