#!/usr/bin/env bash
# Fuzzes StorePrice's parsers with libFuzzer and AddressSanitizer.
#
#   Scripts/fuzz.sh                 every target, 600 seconds each, one after another
#   Scripts/fuzz.sh 60 csv jsonl    the csv and jsonl targets, 60 seconds each
#   JOBS=2 Scripts/fuzz.sh          two targets at a time
#
# Targets (Fuzz/Sources/StorePriceFuzz/Fuzz.swift): amount, locale, period, offer, accounts, csv,
# jsonl, storekit, plist, json, snapshot. Each starts from the seeds in Fuzz/Corpus/TARGET, which
# are copied so the committed seeds stay as they are; new inputs libFuzzer finds go to
# Fuzz/.work/TARGET. A crash leaves its input in Fuzz/artifacts/ and fails the script: fix it,
# then add the input to Tests/Fixtures/fuzz/TARGET/, and its outcome (accepted, or the exact
# error message) to FuzzRegressionTests.outcomes, so that `swift test` keeps it fixed.
# Each target's summary (runs, coverage, peak memory) is printed and kept in Fuzz/.work/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(amount locale period offer accounts csv jsonl storekit plist json snapshot)
jobs=${JOBS:-1}

swift build --package-path Fuzz --product storeprice-fuzz -Xswiftc -sanitize=fuzzer,address >/dev/null
binary="$(swift build --package-path Fuzz --show-bin-path -Xswiftc -sanitize=fuzzer,address)/storeprice-fuzz"
mkdir -p Fuzz/.work Fuzz/artifacts

fuzz() {
  local target=$1
  local corpus=Fuzz/.work/$target
  mkdir -p "$corpus"
  cp -n Fuzz/Corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  if FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no nice -n 10 "$binary" "$corpus" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
       -artifact_prefix=Fuzz/artifacts/"$target"- >Fuzz/.work/"$target".log 2>&1; then
    local runs cov peak
    runs=$(grep -a 'stat::number_of_executed_units:' Fuzz/.work/"$target".log | awk '{print $2}')
    cov=$(grep -ao 'cov: [0-9]*' Fuzz/.work/"$target".log | tail -1 | awk '{print $2}')
    peak=$(grep -a 'stat::peak_rss_mb:' Fuzz/.work/"$target".log | awk '{print $2}')
    echo "fuzz: $target: ${seconds}s, $runs runs, coverage $cov, peak ${peak} MB, no crash"
  else
    echo "fuzz: $target: FAILED; see Fuzz/.work/$target.log and Fuzz/artifacts/"
    grep -aE "ERROR|Fatal error|Precondition failed|SUMMARY|Test unit written" Fuzz/.work/"$target".log | head -5
    return 1
  fi
}

status=0
running=0
for target in "${targets[@]}"; do
  fuzz "$target" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
