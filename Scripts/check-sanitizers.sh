#!/usr/bin/env bash
# Runs the test suite under Thread Sanitizer and Address Sanitizer, and `storeprice render` of the
# sample catalog under valgrind's memcheck, which must find 0 bytes definitely lost.
#
#   Scripts/check-sanitizers.sh              all three
#   Scripts/check-sanitizers.sh thread       one of: thread, address, valgrind
#
# Sanitized builds go to .build-tsan and .build-asan. LeakSanitizer skips the leaks listed in
# Scripts/lsan-suppressions.txt, which are in XCTest and swift-argument-parser, not StorePrice.
# The concurrency load test renders a 1,000-product catalog (STOREPRICE_LOAD_PRODUCTS), as
# `swift test` does; set it to 10000 for the whole benchmark catalog.
set -euo pipefail
cd "$(dirname "$0")/.."
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=(thread address valgrind)
export STOREPRICE_LOAD_PRODUCTS=${STOREPRICE_LOAD_PRODUCTS:-1000}

for check in "${checks[@]}"; do
  case $check in
    thread | address)
      echo "sanitizers: swift test --sanitize=$check"
      log=.build-${check:0:1}san.log
      # Under `ulimit -f 10` the Thread Sanitizer runtime dies as the process starts (even
      # `storeprice --version`, with status 66), so the file-size-limit test runs without it.
      skip=()
      [ "$check" = thread ] && skip=(--skip anOutputFilePastTheSizeLimitIsStatus73AndTheOldFileStays)
      if TSAN_OPTIONS="halt_on_error=1" ASAN_OPTIONS="detect_leaks=1" \
           LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt,print_suppressions=0" \
           swift test --sanitize="$check" --scratch-path ".build-${check:0:1}san" "${skip[@]}" >"$log" 2>&1; then
        grep -E "Executed .* tests|Test run with" "$log" | tail -2 | sed 's/^/  /'
      else
        grep -A40 -E "WARNING: (Thread|Address)Sanitizer|ERROR: (Thread|Address|Leak)Sanitizer" "$log" | head -80
        grep -E "✘|error:" "$log" | head -20
        echo "sanitizers: FAILED under --sanitize=$check; the whole log is $log"
        exit 1
      fi
      ;;
    valgrind)
      echo "sanitizers: valgrind memcheck on storeprice render"
      swift build --product storeprice >/dev/null
      binary="$(swift build --show-bin-path)/storeprice"
      log=$(mktemp)
      for arguments in "render Data/catalog-sample.jsonl --format csv" \
                       "render Data/catalog-sample.storekit --storefronts all --workers 2" \
                       "verify Data/golden/catalog-sample.built-in.jsonl"; do
        # shellcheck disable=SC2086
        valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=3 \
          "$binary" $arguments >/dev/null 2>"$log" || { tail -40 "$log"; echo "sanitizers: valgrind FAILED on $arguments"; exit 1; }
        echo "  $arguments: $(grep -E 'definitely lost|ERROR SUMMARY' "$log" | sed 's/^==[0-9]*== *//' | tr '\n' ' ')"
      done
      rm -f "$log"
      ;;
    *) echo "unknown check '$check'; use thread, address or valgrind"; exit 64 ;;
  esac
done
