#!/usr/bin/env bash
# Builds and tests Examples/PriceService, the Hummingbird 2 service that imports StorePrice by
# path, over real HTTP (HummingbirdTesting's live mode). STOREPRICE names the CLI whose rows
# `POST /v1/render` must equal byte for byte; it is built here when unset.
#
# Usage: Scripts/check-price-service.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ -z "${STOREPRICE:-}" ]; then
  swift build --product storeprice >/dev/null
  STOREPRICE="$(swift build --show-bin-path)/storeprice"
fi
export STOREPRICE
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "price service: swift build and swift test in Examples/PriceService (the first build takes minutes)"
if ! swift test --package-path Examples/PriceService >"$log" 2>&1; then
  tail -60 "$log"
  echo "price service: FAILED"
  exit 1
fi
if grep -E "^($root/)?Examples/PriceService/(Sources|Tests)/[^:]+:[0-9]+:[0-9]+: warning:" "$log"; then
  echo "price service: FAILED: the example builds with warnings"
  exit 1
fi
grep -E "Test run with" "$log" | tail -1
if grep -q "renderedRowsAreTheCLIsRows().*skipped" "$log"; then
  echo "price service: FAILED: the comparison with the CLI was skipped"
  exit 1
fi
echo "price service: passed over real HTTP, its rendered rows the CLI's"
