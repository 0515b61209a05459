#!/usr/bin/env bash
# Measures `storeprice asc pull` as the App Store Connect API would make it run: a stand-in
# (asc-stand-in) answering after a latency, for a made-up app of many in-app purchases and
# subscriptions priced in all 175 storefronts, each subscription with an introductory offer per
# territory and a promotional offer. For each --concurrency: the wall time, the requests, the
# most at once, the peak memory, and the bytes of the answers.
#
# Usage: Scripts/bench-asc-pull.sh [IN_APP_PURCHASES] [SUBSCRIPTIONS] [LATENCY_MS] [CONCURRENCY…]
#        (defaults: 300 50 100 1 4 8 16)
# STOREPRICE names another storeprice to measure (an older build, say); it is built in release otherwise.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
purchases=${1:-300}
subscriptions=${2:-50}
latency=${3:-100}
shift $(( $# < 3 ? $# : 3 ))
levels=${*:-1 4 8 16}

swift build -c release --product storeprice >/dev/null
swift build -c release --product asc-stand-in >/dev/null
bin="$(swift build -c release --show-bin-path)"
storeprice=${STOREPRICE:-$bin/storeprice}
work=$(mktemp -d)
server=""
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT

# The made-up app's responses, in the API's shapes, each with the links.self of its request.
python3 - "$work/responses" "$purchases" "$subscriptions" <<'PY'
import json, os, sys
out, purchases, subscriptions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out)
base = "https://api.appstoreconnect.apple.com"
storefronts = json.load(open("Data/storefronts.json"))
sample = [json.loads(line) for line in open("Data/catalog-sample.jsonl")]
one_time = [p for p in sample if "period" not in p and len(p["prices"]) == 175]
yearly = next(p for p in sample if p["product"] == "com.example.pro.yearly")
count = 0
def write(path, document):
    global count
    count += 1
    with open(os.path.join(out, "%05d.json" % count), "w") as f:
        json.dump(document, f, separators=(",", ":"))
def page(path, data, included=None, next_path=None):
    document = {"data": data, "links": {"self": base + path}}
    if next_path: document["links"]["next"] = base + next_path
    if included is not None: document["included"] = included
    write(path, document)
def prices(kind, owner, amounts, point_type, point_rel, territories):
    data, included = [], []
    for code in territories:
        price_id = "%s-%s" % (owner, code)
        data.append({"type": kind, "id": price_id, "attributes": {"startDate": None, "endDate": None, "manual": code == "USA"},
                     "relationships": {point_rel: {"data": {"type": point_type, "id": price_id + "-pp"}},
                                       "territory": {"data": {"type": "territories", "id": code}}}})
        included.append({"type": point_type, "id": price_id + "-pp", "attributes": {"customerPrice": amounts[code]},
                         "relationships": {"territory": {}}})
    currencies = {s["alpha3"]: s["currency"] for s in storefronts}
    included += [{"type": "territories", "id": code, "attributes": {"currency": currencies[code]}} for code in territories]
    return data, included
codes = [s["alpha3"] for s in storefronts]
page("/v1/apps/1500000000", {"type": "apps", "id": "1500000000", "attributes": {"bundleId": "com.example.bench", "name": "Bench"}})
# In-app purchases: a list of 200 a page, then each one's manual (USA) and automatic (the rest) prices.
ids = [str(7000000000 + i) for i in range(purchases)]
for start in range(0, purchases, 200):
    path = "/v1/apps/1500000000/inAppPurchasesV2" + ("?cursor=%d" % start if start else "")
    following = "/v1/apps/1500000000/inAppPurchasesV2?cursor=%d" % (start + 200) if start + 200 < purchases else None
    page(path, [{"type": "inAppPurchases", "id": i, "attributes": {"productId": "com.example.bench.item%d" % n, "name": "Item %d" % n}}
                for n, i in enumerate(ids[start:start + 200], start)], next_path=following)
for n, i in enumerate(ids):
    amounts = one_time[n % len(one_time)]["prices"]
    for which, territories in (("manualPrices", ["USA"]), ("automaticPrices", [c for c in codes if c != "USA"])):
        data, included = prices("inAppPurchasePrices", i + which[0], amounts, "inAppPurchasePricePoints", "inAppPurchasePricePoint", territories)
        page("/v1/inAppPurchasePriceSchedules/%s/%s?include=inAppPurchasePricePoint,territory" % (i, which), data, included)
    page("/v2/inAppPurchases/%s/inAppPurchaseLocalizations" % i,
         [{"type": "inAppPurchaseLocalizations", "id": i + l, "attributes": {"locale": l, "name": "Item %d" % n, "description": "An item"}}
          for l in ("en-US", "ja")])
# Subscriptions: one group, then each one's prices, titles and offers.
page("/v1/apps/1500000000/subscriptionGroups", [{"type": "subscriptionGroups", "id": "30000000", "attributes": {"referenceName": "Pro"}}])
subs = [str(8000000000 + i) for i in range(subscriptions)]
page("/v1/subscriptionGroups/30000000/subscriptions",
     [{"type": "subscriptions", "id": s, "attributes": {"productId": "com.example.bench.pro%d" % n, "subscriptionPeriod": "ONE_YEAR"}}
      for n, s in enumerate(subs)])
for n, s in enumerate(subs):
    data, included = prices("subscriptionPrices", s, yearly["prices"], "subscriptionPricePoints", "subscriptionPricePoint", codes)
    page("/v1/subscriptions/%s/prices?include=subscriptionPricePoint,territory" % s, data, included)
    page("/v1/subscriptions/%s/subscriptionLocalizations" % s,
         [{"type": "subscriptionLocalizations", "id": s + "en", "attributes": {"locale": "en-US", "name": "Pro %d" % n}}])
    page("/v1/subscriptions/%s/introductoryOffers?include=territory,subscriptionPricePoint" % s,
         [{"type": "subscriptionIntroductoryOffers", "id": "%s-io-%s" % (s, c),
           "attributes": {"startDate": None, "endDate": None, "duration": "ONE_WEEK", "offerMode": "FREE_TRIAL", "numberOfPeriods": 1},
           "relationships": {"territory": {"data": {"type": "territories", "id": c}}, "subscriptionPricePoint": {"data": None}}}
          for c in codes])
    offer = str(9000000000 + n)
    page("/v1/subscriptions/%s/promotionalOffers" % s,
         [{"type": "subscriptionPromotionalOffers", "id": offer,
           "attributes": {"offerCode": "winback%d" % n, "name": "Winback", "duration": "ONE_MONTH", "offerMode": "PAY_UP_FRONT", "numberOfPeriods": 1}}])
    data, included = prices("subscriptionPromotionalOfferPrices", offer, one_time[0]["prices"], "subscriptionPricePoints", "subscriptionPricePoint", codes)
    for price in data: price["attributes"] = {}
    page("/v1/subscriptionPromotionalOffers/%s/prices?include=territory,subscriptionPricePoint" % offer, data, included)
print("bench: %d responses, %.1f MB" % (count, sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out)) / 1e6))
PY

"$bin/asc-stand-in" --make-key "$work/AuthKey.p8" >/dev/null
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin/asc-stand-in" "$work/responses" --key "$work/AuthKey.p8" --port "$port" --latency "$latency" --hourly-limit 100000 >/dev/null &
server=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done

echo "bench: $purchases in-app purchases and $subscriptions subscriptions in 175 storefronts, answers after ${latency} ms"
printf '%-12s %10s %9s %9s %12s   %s\n' concurrency "wall s" requests "at once" "peak MiB" "raw MiB"
for level in $levels; do
  rm -rf "$work/raw"
  option=(--concurrency "$level")
  grep -q -- --concurrency <<<"$("$storeprice" asc pull --help 2>/dev/null)" || option=()
  /usr/bin/time -f '%e %M' -o "$work/time" "$storeprice" asc pull --key-id TEST123456 \
    --issuer-id 57246542-96fe-1a63-e053-0824d011072a --private-key "$work/AuthKey.p8" --app 1500000000 \
    --base-url "http://127.0.0.1:$port" --raw "$work/raw" --output "$work/catalog.jsonl" "${option[@]}" 2>"$work/log" \
    || { cat "$work/log"; exit 1; }
  read -r wall peak < "$work/time"
  requests=$(grep -oE 'from [0-9]+ (requests|responses)' "$work/log" | grep -oE '[0-9]+' || echo "?")
  at_once=$(grep -oE 'at most [0-9]+ at once' "$work/log" | grep -oE '[0-9]+' || echo 1)
  printf '%-12s %10s %9s %9s %12s   %s\n' "${option[1]:-1 (serial)}" "$wall" "$requests" "$at_once" "$((peak / 1024))" \
    "$(du -sm "$work/raw" | cut -f1)"
  [ ${#option[@]} -gt 0 ] || break
done
echo "bench: $(wc -l < "$work/catalog.jsonl") products in the catalog"
