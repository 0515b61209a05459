#!/usr/bin/env bash
# Checks a small render's cost per call, as a ratio measured in one run: the sample catalog for
# USA and JPN (62 rows) rendered, with one worker as the service renders, by CatalogRenderer (at
# most 3×) and BulkRenderer (5× from products in memory, 20× from the catalog's bytes, which it
# parses too), against formatting its 62 prices one by one with cached formatters. Each costs
# about half its limit today; a renderer that builds its plan and formatters on every call costs
# 21× to 82× and fails.
#
# service-renders is built as the deployed service is (Scripts/build-service.sh's release build
# with the Swift runtime linked in), so that after that build this one only links.
#
# Usage: Scripts/check-render-cost.sh
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(--package-path Examples/PriceService -c release --static-swift-stdlib)
swift build "${flags[@]}" --product service-renders >/dev/null 2>&1 \
  || { swift build "${flags[@]}" --product service-renders 2>&1 | tail -30; echo "render cost: FAILED to build service-renders"; exit 1; }
"$(swift build "${flags[@]}" --show-bin-path)/service-renders" --check
