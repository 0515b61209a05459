#!/usr/bin/env bash
# End-to-end benchmark of what users run: `storeprice render` on the benchmark catalog (10,000
# products × 175 storefronts = 1.75M rows, CSV in, and the same as JSON Lines; JSON Lines and CSV
# out to /dev/null), against
# the plain C + ICU program in Benchmarks/Sources/ICUBaseline/csv_render.c, in one interleaved run.
#
# Prints, per output format: median wall and CPU time over RUNS runs (default 5), the highest peak memory,
# 2 workers against 1 beside the same ratio for a plain loop with nothing shared (the machine's
# own scaling, measured in the same interleaved run),
# and with --instructions, instructions per row counted by callgrind: in total on the full
# catalog, and in the steady state (the difference between 4,000 and 2,000 products, which
# leaves out start-up and the first formatting of each price). Both programs' outputs are
# checked to be byte-identical first.
#
# Usage: Scripts/bench-end-to-end.sh [--instructions] [--long] [--memory]
#   --long     also times 1 and 2 workers on a catalog four times as long (7M rows, 240 MB)
#   --memory   also renders 20M rows with 5,000 distinct amounts per currency through standard
#              input (a 700 MB catalog written to $TMPDIR) and prints the peak memory
# Environment:
#   RUNS=N          interleaved runs of each program (default 5; the Benchmarks article's figures use 11)
#   BENCH_DIR=DIR   keep the catalogs and programs in DIR and reuse them in later runs; without
#                   it they go to a temporary folder, removed at the end
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-5}
instructions=0
memory=0
long=0
for argument in "$@"; do
  case $argument in
    --instructions) instructions=1 ;;
    --memory) memory=1 ;;
    --long) long=1 ;;
    *) echo "usage: $0 [--instructions] [--long] [--memory]" >&2; exit 64 ;;
  esac
done
if [ -n "${BENCH_DIR:-}" ]; then
  work=$BENCH_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

echo "bench: building (release)"
# Quiet unless a build fails: then its log is shown.
build() { "$@" >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; exit 1; }; }
# Built as the README says to install the CLI: with the Swift runtime linked in, which saves each
# run 3 to 4 ms of dynamic loading. In its own build folder, so that switching costs no rebuild.
static=(--build-path .build-static --static-swift-stdlib)
build swift build -c release --product storeprice "${static[@]}"
storeprice="$(swift build -c release "${static[@]}" --show-bin-path)/storeprice"
build swift build --package-path Benchmarks -c release --product make-catalog
make_catalog="$(swift build --package-path Benchmarks -c release --show-bin-path)/make-catalog"
# Compiled directly: valgrind cannot read the debug information SwiftPM gives C executables.
cc -O2 -o "$work/c-render" -I Benchmarks/Sources/ICUBaseline/include \
  Benchmarks/Sources/ICUBaseline/csv_render.c Benchmarks/Sources/c-render/main.c $(pkg-config --cflags --libs icu-i18n)
# The machine's own scaling, for the 2-worker figure: a loop with no memory traffic and nothing
# shared, on 1 and 2 threads. On a shared virtual machine its 2-thread speed-up varies from run
# to run; the rows of the same run say how much of storeprice's shortfall is the machine's.
cc -O2 -pthread -x c -o "$work/parallel-loop" - <<'C'
#include <pthread.h>
#include <stdlib.h>
static long iterations = 500000000;
static void *loop(void *threads) {
  volatile long sum = 0;
  for (long i = 0; i < iterations / (long)threads; i++) sum += i;
  return NULL;
}
int main(int argc, char **argv) {
  long threads = argc > 1 ? atol(argv[1]) : 1;
  pthread_t thread[2];
  for (long i = 0; i < threads && i < 2; i++) pthread_create(&thread[i], NULL, loop, (void *)threads);
  for (long i = 0; i < threads && i < 2; i++) pthread_join(thread[i], NULL);
  return 0;
}
C
"$storeprice" storefronts --format csv | python3 -c '
import csv, sys
for row in csv.DictReader(sys.stdin): print(row["alpha3"], row["price_locale"], row["currency"], sep="\t")' > "$work/targets.tsv"
for products in 10000 4000 2000; do
  [ -s "$work/catalog-$products.csv" ] || "$make_catalog" "$products" > "$work/catalog-$products.csv"
done
catalog="$work/catalog-10000.csv"
rows=$(( $(wc -l < "$catalog") - 1 ))
# The same catalog as JSON Lines, one product per line, for the JSON Lines catalog rows.
[ -s "$work/catalog-10000.jsonl" ] || python3 - "$catalog" > "$work/catalog-10000.jsonl" <<'PY'
import json, sys
product, prices = None, {}
def flush():
    if product is not None:
        print(json.dumps({"product": product, "prices": prices}, separators=(",", ":")))
for number, line in enumerate(open(sys.argv[1])):
    if number == 0: continue
    p, s, a = line.rstrip("\n").split(",")
    if p != product:
        flush(); product, prices = p, {}
    prices[s] = a
flush()
PY
jsonl_catalog="$work/catalog-10000.jsonl"

c_args() { [ "$1" = csv ] && echo csv || true; }
for format in jsonl csv; do
  a=$("$storeprice" render "$catalog" --storefronts all --format "$format" | md5sum | cut -c1-32)
  b=$("$work/c-render" "$catalog" "$work/targets.tsv" $(c_args "$format") | md5sum | cut -c1-32)
  [ "$a" = "$b" ] || { echo "bench: $format output differs between storeprice and the C program"; exit 1; }
  j=$("$storeprice" render "$jsonl_catalog" --storefronts all --format "$format" | md5sum | cut -c1-32)
  [ "$a" = "$j" ] || { echo "bench: $format output differs between the CSV and JSON Lines catalogs"; exit 1; }
done
echo "bench: outputs byte-identical; $rows rows; $runs interleaved runs each"

# One run: "NAME WALL USER SYSTEM PEAK_KIB", times in seconds to the millisecond by bash's `time`
# (GNU time's are to the hundredth, too coarse for runs of 100 ms); GNU time gives the peak.
timed() {
  local name=$1 times TIMEFORMAT="%3R %3U %3S"
  shift
  times=$( { time /usr/bin/time -f %M -o "$work/peak" "$@" > /dev/null 2> "$work/stderr"; } 2>&1 )
  echo "$name $times $(cat "$work/peak")"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for format in jsonl csv; do
  : > "$work/times-$format"
  for _ in $(seq "$runs"); do
    for program in c sp1 sp2 spj1 spj2 loop1 loop2; do
      case $program in
        c) command=("$work/c-render" "$catalog" "$work/targets.tsv" $(c_args "$format")) ;;
        loop1) command=("$work/parallel-loop" 1) ;;
        loop2) command=("$work/parallel-loop" 2) ;;
        sp1) command=("$storeprice" render "$catalog" --storefronts all --format "$format" --workers 1) ;;
        sp2) command=("$storeprice" render "$catalog" --storefronts all --format "$format" --workers 2) ;;
        spj1) command=("$storeprice" render "$jsonl_catalog" --storefronts all --format "$format" --workers 1) ;;
        spj2) command=("$storeprice" render "$jsonl_catalog" --storefronts all --format "$format" --workers 2) ;;
      esac
      timed "$program" "${command[@]}" >> "$work/times-$format"
    done
  done
  echo
  echo "$format: $runs runs (median wall and CPU ns per row, highest peak memory)"
  for program in c sp1 sp2 spj1 spj2; do
    wall=$(awk -v p=$program '$1 == p { print $2 }' "$work/times-$format" | median)
    cpu=$(awk -v p=$program '$1 == p { print $3 + $4 }' "$work/times-$format" | median)
    rss=$(awk -v p=$program '$1 == p { print $5 }' "$work/times-$format" | sort -n | tail -1)
    name=$(case $program in
      c) echo "C + ICU, 1 thread" ;; sp1) echo "storeprice --workers 1" ;; sp2) echo "storeprice --workers 2" ;;
      spj1) echo "  JSONL catalog, 1" ;; spj2) echo "  JSONL catalog, 2" ;; esac)
    awk -v n="$name" -v w="$wall" -v c="$cpu" -v r="$rss" -v rows="$rows" \
      'BEGIN { printf "  %-24s wall %5.0f ns/row  CPU %5.0f ns/row  peak %3.0f MiB\n", n, w * 1e9 / rows, c * 1e9 / rows, r / 1024 }'
    eval "wall_$program=$wall"
  done
  loop1=$(awk '$1 == "loop1" { print $2 }' "$work/times-$format" | median)
  loop2=$(awk '$1 == "loop2" { print $2 }' "$work/times-$format" | median)
  awk -v a="$wall_sp1" -v b="$wall_sp2" -v c="$wall_spj1" -v d="$wall_spj2" -v e="$loop1" -v f="$loop2" \
    'BEGIN { printf "  2 workers against 1: %.2f× (CSV catalog), %.2f× (JSON Lines catalog); the machine, a plain loop on 2 threads against 1: %.2f×\n", a / b, c / d, e / f }'
  # The spread, so that a noisy run shows as one.
  awk '{ w = $2 * 1000; if (!($1 in lo) || w < lo[$1]) lo[$1] = w; if (w > hi[$1]) hi[$1] = w }
    END { n = split("sp1 sp2 spj1 spj2 loop1 loop2", p, " ")
      split("1 worker|2 workers|JSONL catalog, 1|JSONL catalog, 2|loop, 1 thread|loop, 2 threads", name, "|")
      printf "  wall of the runs, fastest to slowest:"
      for (i = 1; i <= n; i++) printf " %s %.0f–%.0f ms%s", name[i], lo[p[i]], hi[p[i]], i < n ? ";" : "\n" }' "$work/times-$format"
done

if [ "$long" -eq 1 ]; then
  [ -s "$work/catalog-40000.csv" ] || "$make_catalog" 40000 > "$work/catalog-40000.csv"
  : > "$work/times-long"
  for _ in $(seq "$runs"); do
    for workers in 1 2; do
      timed "w$workers" "$storeprice" render "$work/catalog-40000.csv" --storefronts all --workers "$workers" >> "$work/times-long"
      timed "loop$workers" "$work/parallel-loop" "$workers" >> "$work/times-long"
    done
  done
  w1=$(awk '$1 == "w1" { print $2 }' "$work/times-long" | median)
  w2=$(awk '$1 == "w2" { print $2 }' "$work/times-long" | median)
  echo
  loop1=$(awk '$1 == "loop1" { print $2 }' "$work/times-long" | median)
  loop2=$(awk '$1 == "loop2" { print $2 }' "$work/times-long" | median)
  awk -v a="$w1" -v b="$w2" -v e="$loop1" -v f="$loop2" 'BEGIN { printf "7M rows, JSON Lines out, median of wall times: 1 worker %.0f ms, 2 workers %.0f ms (%.2f×); the plain loop %.2f×\n", a * 1000, b * 1000, a / b, e / f }'
fi

if [ "$instructions" -eq 1 ]; then
  # valgrind cannot read the DWARF 5 the C target (CICU) adds to storeprice: count a copy
  # without debug information (its symbols stay, for callgrind_annotate).
  objcopy --strip-debug "$storeprice" "$work/storeprice-nodebug"
  storeprice="$work/storeprice-nodebug"
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/Collected/ { print $4 }' | tr -d ,; }
  echo
  echo "instructions per row (callgrind; storeprice with --workers 1)"
  for format in jsonl csv; do
    c_total=$(count "$work/c-render" "$catalog" "$work/targets.tsv" $(c_args "$format"))
    s_total=$(count "$storeprice" render "$catalog" --storefronts all --format "$format" --workers 1)
    c_4=$(count "$work/c-render" "$work/catalog-4000.csv" "$work/targets.tsv" $(c_args "$format"))
    c_2=$(count "$work/c-render" "$work/catalog-2000.csv" "$work/targets.tsv" $(c_args "$format"))
    s_4=$(count "$storeprice" render "$work/catalog-4000.csv" --storefronts all --format "$format" --workers 1)
    s_2=$(count "$storeprice" render "$work/catalog-2000.csv" --storefronts all --format "$format" --workers 1)
    awk -v f="$format" -v ct="$c_total" -v st="$s_total" -v c4="$c_4" -v c2="$c_2" -v s4="$s_4" -v s2="$s_2" -v rows="$rows" 'BEGIN {
      steady = 2000 * 175
      printf "  %-6s total:  C %4.0f, storeprice %4.0f (%.2f×)   steady state:  C %4.0f, storeprice %4.0f (%.2f×)\n",
        f, ct / rows, st / rows, st / ct, (c4 - c2) / steady, (s4 - s2) / steady, (s4 - s2) / (c4 - c2) }'
  done
fi

if [ "$memory" -eq 1 ]; then
  big="$work/catalog-20m-5000.csv"
  if [ ! -s "$big" ]; then
    echo; echo "bench: writing 20M rows with 5,000 amounts per currency"
    python3 - "$work/targets.tsv" > "$big" <<'PY'
import random, sys
random.seed(5)
targets = [line.split("\t") for line in open(sys.argv[1]).read().splitlines()]
zero = {"CLP", "JPY", "KRW", "VND"}
out = sys.stdout
out.write("product,storefront,price\n")
rows, product, lines = 0, 0, []
while rows < 20_000_000:
    for alpha3, _, currency in targets:
        tier = random.randrange(5000)
        amount = str((tier + 1) * 100) if currency in zero else (f"{tier}.{tier % 100:02d}" if tier % 2 == 0 else str(tier + 1))
        lines.append(f"com.example.product{product},{alpha3},{amount}\n")
        rows += 1
    product += 1
    if len(lines) > 100_000:
        out.write("".join(lines)); lines = []
out.write("".join(lines))
PY
  fi
  echo
  for format in jsonl csv; do
    /usr/bin/time -f "20M rows, 5,000 amounts per currency, standard input, $format, 2 workers: %e s, peak %M KiB" \
      "$storeprice" render - --catalog-format csv --storefronts all --format "$format" < "$big" > /dev/null
  done
fi
