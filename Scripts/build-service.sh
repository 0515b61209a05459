#!/usr/bin/env bash
# Builds the price service (Examples/PriceService) for deployment: a release build with the Swift
# runtime and Foundation linked in (--static-swift-stdlib), copied to OUT. The binary needs only
# the system's C libraries and ICU (libicu72 on Debian 12), which this script lists, and names
# the ICU it was built against. The Dockerfile's build stage runs it; so does .ci/run, which then
# starts the binary from an empty folder (Scripts/check-service-binary.sh).
#
# Usage: Scripts/build-service.sh OUT
set -euo pipefail
out=${1:?usage: Scripts/build-service.sh OUT}
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
echo "build-service: swift build -c release --static-swift-stdlib (the first build takes minutes)"
swift build --package-path "$root/Examples/PriceService" -c release --static-swift-stdlib --product PriceServer \
  >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; echo "build-service: FAILED"; exit 1; }
bin="$(swift build --package-path "$root/Examples/PriceService" -c release --static-swift-stdlib --show-bin-path)/PriceServer"
cp "$bin" "$out/PriceServer"
rm -f "$out/build.log"
# What the binary loads: the system's C libraries and ICU, and no Swift runtime.
libraries=$(ldd "$out/PriceServer" | awk '{print $1}' | sed 's|.*/||' | sort | paste -sd ' ')
if grep -qE 'libswift|libFoundation|lib_Foundation|libdispatch' <<<"$libraries"; then
  echo "build-service: FAILED: the binary loads Swift's runtime: $libraries"; exit 1
fi
echo "build-service: $out/PriceServer, $(du -m "$out/PriceServer" | cut -f1) MB, built against ICU $(pkg-config --modversion icu-i18n); it loads $libraries"
