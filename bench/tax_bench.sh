#!/bin/bash
# Issue 16's distributed tax: each kernel at 2 ranks x 1 thread over 1 rank x 2 threads, on the
# symmetrized, deduplicated, weighted kron:20 without self loops, the vertex engine, ranks as
# threads of one process. Alternates shapes (and builds, when several are given) run by run,
# REPEATS times, and prints the medians of `times.run` and their ratio per build and kernel.
#
#   bench/tax_bench.sh [REPEATS] [GRAPH] [BUILD_DIR...]
#   e.g. bench/tax_bench.sh 5 /tmp/k20symw.csr /tmp/base/build build
# KERNELS="cc bfs" picks the kernels (all four by default).
# The graph, made once: courier convert kron:20 --weights --symmetrize --dedupe --drop-self-loops -o GRAPH
set -euo pipefail
repeats=${1:-5} graph=${2:-/tmp/k20symw.csr}
shift 2 || true
builds=("${@:-build}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$repeats"); do
  for kernel in ${KERNELS:-bfs cc pagerank sssp}; do
    case $kernel in
      bfs | sssp) extra=(--source 638953) ;;
      pagerank) extra=(--iterations 20 --tolerance 0) ;;
      *) extra=() ;;
    esac
    for shape in "1 2" "2 1"; do
      set -- $shape
      for build in "${builds[@]}"; do
        "$build/tools/courier/courier" run $kernel --graph "$graph" --ranks "$1" --threads "$2" "${extra[@]}" \
          --json "$work/run.json" >/dev/null
        python3 -c 'import json, sys; print(json.dumps({"build": sys.argv[2], "kernel": sys.argv[3],
          "shape": sys.argv[4], "run": json.load(open(sys.argv[1]))["times"]["run"]}))' \
          "$work/run.json" "$build" "$kernel" "${1}x$2" >>"$work/runs.jsonl"
      done
    done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/runs.jsonl" ${KERNELS:-bfs cc pagerank sssp} <<'PY'
import collections, json, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["build"], r["kernel"], r["shape"])].append(r["run"])
for build in sorted({k[0] for k in runs}):
    for kernel in sys.argv[2:]:
        one, two = (statistics.median(runs[(build, kernel, s)]) for s in ("1x2", "2x1"))
        print(f"{build:<24} {kernel:<9} 1x2 {one:.4f} s  2x1 {two:.4f} s  tax {two / one:.2f}")
PY
