#!/usr/bin/env bash
# Chaos on many seeds (issue 17): every algorithm x distributed engine pair that `courier list`
# reports, under the local transport's chaos mode (COURIER_CHAOS=SEED: frames delayed, reordered
# and spuriously refused, pools starved), each run checked with --verify. CTest runs 3 fixed seeds
# (ctest -L chaos); this runs as many more as asked, with rank counts and policies varying by seed.
# A failing run prints its seed and the command that reproduces it; the exit code is the number of
# failures (capped at 100).
#
#   scripts/chaos.sh                 # 20 random seeds, build/
#   scripts/chaos.sh 200             # 200 random seeds
#   SEEDS="7 12" scripts/chaos.sh    # these seeds
#   BUILD=build-asan scripts/chaos.sh 10
set -uo pipefail
cd "$(dirname "$0")/.."
count=${1:-20}
build=${BUILD:-build}
courier=$build/tools/courier/courier
graph=${GRAPH:-kron:7}
per_run_timeout=${TIMEOUT:-120}
[ -x "$courier" ] || { echo "chaos.sh: no $courier; build first (cmake --build $build)" >&2; exit 2; }
seeds=${SEEDS:-$(for _ in $(seq "$count"); do echo $((RANDOM * 32768 + RANDOM + 1)); done)}

# "algorithm engine" for every distributed engine that runs the algorithm.
pairs=$("$courier" list | awk 'NR > 1 && NF > 5 && $1 ~ /^[a-z]+$/ {
  if ($2 == "yes") print $1, "vertex"; if ($3 == "yes") print $1, "mailbox";
  if ($4 == "yes") print $1, "la"; if ($5 == "yes") print $1, "dsl" }')
[ -n "$pairs" ] || { echo "chaos.sh: could not read the algorithm table from '$courier list'" >&2; exit 2; }

runs=0 failures=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for seed in $seeds; do
  ranks=$((2 + seed % 3))  # 2-4 ranks
  policies=(oec iec cvc hash)
  policy=${policies[$((seed % 4))]}
  while read -r algorithm engine; do
    extra=()
    [ "$algorithm" = sssp ] && extra+=(--weights)
    [ "$engine" = vertex ] && extra+=(--policy "$policy")
    command=(run "$algorithm" --graph "$graph" --engine "$engine" --ranks "$ranks" --verify "${extra[@]}")
    runs=$((runs + 1))
    if ! COURIER_CHAOS=$seed timeout "$per_run_timeout" "$courier" "${command[@]}" >"$log" 2>&1 ||
      ! grep -q "Verification: PASS" "$log"; then
      failures=$((failures + 1))
      echo "FAIL seed $seed: COURIER_CHAOS=$seed $courier ${command[*]}"
      tail -3 "$log" | sed 's/^/    /'
    fi
  done <<<"$pairs"
  echo "seed $seed done ($runs runs, $failures failures)"
done
echo "chaos: $runs runs over $(wc -w <<<"$seeds") seeds on $graph, $failures failures"
exit $((failures > 100 ? 100 : failures))
