#!/bin/sh
# Distributed loading (every rank reads its own part) against the whole-graph path (every rank
# loads everything), kron:20 as a .csr file and as a text edge list made by `courier convert`, on
# 2 ranks under mpirun. Runs the modes alternately (whole, parts, whole, parts, ...), REPEATS
# times each; prints the median load and partition seconds and the largest peak RSS of a rank,
# and keeps every rank's JSON lines. Each run is also wrapped in /usr/bin/time -v (its
# "Maximum resident set size" per process is in the log).
#
#   bench/dist_load_bench.sh [BUILD_DIR] [SCALE] [REPEATS] [WORK_DIR]
#   e.g. bench/dist_load_bench.sh build 20 3 /tmp/courier-load
set -eu
build=${1:-build} scale=${2:-20} repeats=${3:-3} work=${4:-/tmp/courier-load-bench}
ranks=${RANKS:-2}
mpirun=${MPIRUN:-"mpirun --allow-run-as-root --oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader --mca btl_vader_single_copy_mechanism none"}
courier=$build/tools/courier/courier bench=$build/bench/dist_load_bench
mkdir -p "$work"
jsonl=$work/dist_load.jsonl log=$work/dist_load.log
: >"$jsonl"
: >"$log"
for ext in csr el; do
  [ -f "$work/kron$scale.$ext" ] || "$courier" convert "kron:$scale" -o "$work/kron$scale.$ext"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
for i in $(seq "$repeats"); do
  for ext in csr el; do
    for mode in whole parts; do
      $mpirun -np "$ranks" /usr/bin/time -v "$bench" --graph "$work/kron$scale.$ext" --mode $mode --json "$jsonl" \
        >>"$log" 2>&1
    done
  done
done
grep "Maximum resident set size" "$log" | sed 's/^[[:space:]]*/time -v: /' | head -4
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
python3 - "$jsonl" <<'PY'
import json, statistics, sys, collections
rows = [json.loads(line) for line in open(sys.argv[1])]
runs = collections.defaultdict(list)  # (graph, mode) -> [(load, partition, max rss over ranks)]
by_run = collections.defaultdict(list)
for i, r in enumerate(rows):
    by_run[(r["graph"], r["mode"], i // r["ranks"])].append(r)
for (graph, mode, _), ranks in by_run.items():
    runs[(graph, mode)].append((ranks[0]["load_seconds"], ranks[0]["partition_seconds"],
                                max(r["peak_rss_mib"] for r in ranks)))
print(f"{'graph':<34} {'mode':<6} {'load_s':>8} {'partition_s':>12} {'total_s':>8} {'max_rank_rss_MiB':>17}")
for (graph, mode), v in sorted(runs.items()):
    load = statistics.median(x[0] for x in v); part = statistics.median(x[1] for x in v)
    rss = statistics.median(x[2] for x in v)
    print(f"{graph.split('/')[-1]:<34} {mode:<6} {load:>8.3f} {part:>12.3f} {load + part:>8.3f} {rss:>17.1f}")
PY
