#!/usr/bin/env bash
# Measures `storeprice play pull` as the Google Play Developer API would make it run: a stand-in
# (play-stand-in) answering after a latency, in pages of 100, for a made-up app of many one-time
# products and subscriptions priced in all 173 Play regions, each subscription with two base
# plans and three offers. For each --concurrency: the wall time, the requests, the most at once,
# the peak memory, and the bytes of the answers.
#
# Usage: Scripts/bench-play-pull.sh [ONE_TIME_PRODUCTS] [SUBSCRIPTIONS] [LATENCY_MS] [CONCURRENCY…]
#        (defaults: 300 50 100 1 4 8 16)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
products=${1:-300}
subscriptions=${2:-50}
latency=${3:-100}
shift $(( $# < 3 ? $# : 3 ))
levels=${*:-1 4 8 16}

swift build -c release --product storeprice >/dev/null
swift build -c release --product play-stand-in >/dev/null
bin="$(swift build -c release --show-bin-path)"
storeprice=${STOREPRICE:-$bin/storeprice}
work=$(mktemp -d)
server=""
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT

# The made-up app's documents, in the API's shapes, every region in its buyer currency.
python3 - "$work/documents" "$products" "$subscriptions" <<'PY'
import json, os, sys
out, products, subscriptions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out)
regions = json.load(open("Data/play-regions.json"))["regions"]
def money(region, units):
    return {"currencyCode": region["currency"], "units": str(units), "nanos": 990000000}
one_time = [{
    "packageName": "com.example.app", "productId": "item_%04d" % n,
    "listings": [{"languageCode": "en-US", "title": "Item %d" % n, "description": "An item"}],
    "purchaseOptions": [{"purchaseOptionId": "buy", "state": "ACTIVE", "buyOption": {"legacyCompatible": True},
        "regionalPricingAndAvailabilityConfigs": [
            {"regionCode": r["region"], "price": money(r, 1 + n % 50), "availability": "AVAILABLE"} for r in regions]}],
    "regionsVersion": {"version": "2025/03"}} for n in range(products)]
subs, offers = [], []
for n in range(subscriptions):
    product = "plan_%03d" % n
    plans = []
    for plan, period in [("monthly", "P1M"), ("yearly", "P1Y")]:
        plans.append({"basePlanId": plan, "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": period},
            "regionalConfigs": [{"regionCode": r["region"], "newSubscriberAvailability": True,
                                 "price": money(r, 4 if plan == "monthly" else 39)} for r in regions]})
    subs.append({"packageName": "com.example.app", "productId": product, "basePlans": plans,
                 "listings": [{"languageCode": "en-US", "title": "Plan %d" % n}]})
    phases = [("free-week", "monthly", {"recurrenceCount": 1, "duration": "P1W"}, lambda r: {"free": {}}),
              ("half-off", "monthly", {"recurrenceCount": 3, "duration": "P1M"}, lambda r: {"relativeDiscount": 0.5}),
              ("first-year", "yearly", {"recurrenceCount": 1, "duration": "P1Y"}, lambda r: {"price": money(r, 29)})]
    for offer, plan, phase, config in phases:
        offers.append({"packageName": "com.example.app", "productId": product, "basePlanId": plan, "offerId": offer,
            "state": "ACTIVE", "targeting": {"acquisitionRule": {}},
            "regionalConfigs": [{"regionCode": r["region"], "newSubscriberAvailability": True} for r in regions],
            "phases": [dict(phase, regionalConfigs=[dict({"regionCode": r["region"]}, **config(r)) for r in regions])]})
for name, key, items in [("onetimeproducts.json", "oneTimeProducts", one_time), ("subscriptions.json", "subscriptions", subs),
                         ("offers.json", "subscriptionOffers", offers)]:
    json.dump({key: items}, open(os.path.join(out, name), "w"))
PY

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin/play-stand-in" "$work/documents" --key "$work/key.json" --port "$port" --latency "$latency" --page-size 100 >"$work/server.log" &
server=$!
for _ in $(seq 100); do grep -q serving "$work/server.log" 2>/dev/null && break; sleep 0.1; done

echo "bench: $products one-time products and $subscriptions subscriptions (2 base plans, 3 offers each) in 173 regions, answers after ${latency} ms, pages of 100"
printf '%-12s %10s %9s %9s %12s   %s\n' concurrency "wall s" requests "at once" "peak MiB" "raw MiB"
for level in $levels; do
  rm -rf "$work/raw"
  /usr/bin/time -f '%e %M' -o "$work/time" "$storeprice" play pull --service-account "$work/key.json" \
    --package com.example.app --base-url "http://127.0.0.1:$port" --raw "$work/raw" --output "$work/catalog.json" \
    --concurrency "$level" 2>"$work/log" || { cat "$work/log"; exit 1; }
  read -r wall peak < "$work/time"
  requests=$(grep -oE 'from [0-9]+ requests' "$work/log" | grep -oE '[0-9]+' || echo "?")
  at_once=$(grep -oE 'at most [0-9]+ at once' "$work/log" | grep -oE '[0-9]+' || echo "?")
  printf '%-12s %10s %9s %9s %12s   %s\n' "$level" "$wall" "$requests" "$at_once" "$((peak / 1024))" "$(du -sm "$work/raw" | cut -f1)"
done
grep -oE 'wrote [0-9]+ products \([0-9]+ offers\)' "$work/log" | sed 's/^/bench: /'
