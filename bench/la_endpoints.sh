#!/usr/bin/env bash
# la on Courier's comm endpoints against la on raw MPI_THREAD_MULTIPLE (--endpoints mpi), both
# under mpirun, alternated in one series; prints each run's algorithm time and the medians.
#   bench/la_endpoints.sh [GRAPH.csr] [RANKS] [THREADS] [REPEATS] [ALGORITHMS]
# Without a graph it generates kron:20 (with uint32 weights) into a temporary folder.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
courier="${COURIER:-$here/build/tools/courier/courier}"
graph="${1:-}"
ranks="${2:-2}"
threads="${3:-2}"
repeats="${4:-5}"
algorithms="${5:-pagerank cc bfs sssp}"
mpirun_flags=(--allow-run-as-root --oversubscribe --bind-to none --mca pml ob1 --mca btl self,vader
  --mca btl_vader_single_copy_mechanism none)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -z "$graph" ]; then
  graph="$work/kron20.csr"
  "$courier" generate kron --scale 20 --weights -o "$graph" >/dev/null
fi
seconds() {  # the algorithm's time of one run
  local fixed=()
  [ "$1" = pagerank ] && fixed=(--iterations 20 --tolerance 0)
  mpirun "${mpirun_flags[@]}" -np "$ranks" "$courier" run "$1" --graph "$graph" --engine la --threads "$threads" \
    --endpoints "$2" "${fixed[@]}" --json "$work/run.json" >/dev/null
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["times"]["run"])' "$work/run.json"
}
for algorithm in $algorithms; do
  courier_times=() mpi_times=()
  for ((r = 0; r < repeats; ++r)); do
    courier_times+=("$(seconds "$algorithm" courier)")
    mpi_times+=("$(seconds "$algorithm" mpi)")
  done
  python3 - "$algorithm" "${courier_times[*]}" "${mpi_times[*]}" "$ranks" "$threads" <<'PY'
import statistics, sys
algorithm, a, b, ranks, threads = sys.argv[1:]
a = [float(x) for x in a.split()]
b = [float(x) for x in b.split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"{algorithm} {ranks}x{threads}: endpoints {ma:.4f} s, raw MPI {mb:.4f} s, raw MPI / endpoints {mb / ma:.2f}x"
      f"  (endpoints {' '.join(f'{x:.4f}' for x in a)}; mpi {' '.join(f'{x:.4f}' for x in b)})")
PY
done
