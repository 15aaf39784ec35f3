#!/usr/bin/env bash
# The mailbox with threads (issue 19): the same ranks' worth of cores as one MPI process of two
# compute threads (1x2: one mailbox shared by both threads) and as two MPI processes of one thread
# (2x1: YGM's layout), degree counting and cc through `courier run --engine mailbox`, the input
# loaded as paper 001 does (as read); 1x1 (one process, one thread) beside them says what the
# second thread adds within a rank. Runs alternate (1x2, 2x1, 1x1, 1x2, ...); prints every run's
# algorithm time, the medians and the medians of the per-round ratios 2x1 / 1x2 and 1x1 / 1x2
# (above 1: 1x2 is faster).
#   bench/mailbox_threads.sh [GRAPH] [REPEATS] [ALGORITHMS]     (default kron:20 7 "degree cc")
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
courier="${COURIER:-$here/build/tools/courier/courier}"
graph="${1:-kron:20}"
repeats="${2:-7}"
algorithms="${3:-degree cc}"
mpirun_flags=(--allow-run-as-root --oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader
  --mca btl_vader_single_copy_mechanism none)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
seconds() {  # ALGORITHM PROCESSES THREADS: the algorithm's time of one run (the slowest rank's)
  mpirun "${mpirun_flags[@]}" -np "$2" "$courier" run "$1" --graph "$graph" --engine mailbox --threads "$3" \
    --json "$work/run.json" >/dev/null
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["times"]["run"])' "$work/run.json"
}
echo "graph $graph, $repeats alternated rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
for algorithm in $algorithms; do
  threads=() processes=() single=()
  for ((r = 0; r < repeats; ++r)); do
    threads+=("$(seconds "$algorithm" 1 2)")
    processes+=("$(seconds "$algorithm" 2 1)")
    single+=("$(seconds "$algorithm" 1 1)")
  done
  python3 - "$algorithm" "${threads[*]}" "${processes[*]}" "${single[*]}" <<'PY'
import statistics, sys
algorithm = sys.argv[1]
a, b, c = ([float(x) for x in arg.split()] for arg in sys.argv[2:])
med = statistics.median
listed = lambda xs: ' '.join(f'{x:.4f}' for x in xs)
print(f"{algorithm}: 1x2 {med(a):.4f} s, 2x1 {med(b):.4f} s, 1x1 {med(c):.4f} s; per round 2x1 / 1x2 "
      f"{med([y / x for x, y in zip(a, b)]):.2f}x, 1x1 / 1x2 {med([z / x for x, z in zip(a, c)]):.2f}x"
      f"  (1x2 {listed(a)}; 2x1 {listed(b)}; 1x1 {listed(c)})")
PY
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
