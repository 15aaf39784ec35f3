#!/bin/sh
# Issue 16's scale target: kron:SCALE generated and converted to .csr (`courier convert`, which
# writes a generated graph window by window), then bfs, cc and pagerank (20 fixed steps) run from
# the file at RANKS ranks of the local transport x THREADS threads, each a whole process under
# /usr/bin/time -v. Prints, and appends to WORK/scale.jsonl, each step's wall time and peak resident
# memory (all ranks of the process), and the run's own load, partition and algorithm seconds.
# VERIFY=0 skips --verify.
#
#   bench/scale_bench.sh [BUILD_DIR] [WORK_DIR] [SCALES]
#   e.g. RANKS=4 bench/scale_bench.sh build /tmp/courier-scale "24 26"
set -eu
build=${1:-build}
work=${2:-/tmp/courier-scale}
scales=${3:-"24 26"}
ranks=${RANKS:-4}
threads=${THREADS:-1}
verify=${VERIFY:-1}  # 0: skip --verify (its checkers read the whole graph on one rank)
courier=$build/tools/courier/courier
mkdir -p "$work"
jsonl=$work/scale.jsonl
echo "commit $(git rev-parse --short=7 HEAD), $(uptime | sed 's/.*load/load/')"
for scale in $scales; do
  graph=$work/kron$scale.csr
  /usr/bin/time -f "%e %M" -o "$work/time.txt" "$courier" convert "kron:$scale" -o "$graph" --quiet
  read -r seconds kib <"$work/time.txt"
  printf '{"scale": %s, "step": "convert", "seconds": %s, "peak_rss": %s, "file_bytes": %s}\n' \
    "$scale" "$seconds" "$((kib * 1024))" "$(stat -c %s "$graph")" | tee -a "$jsonl"
  for algo in bfs cc pagerank; do
    extra=""
    [ "$verify" = 1 ] && extra="--verify"
    [ "$algo" = pagerank ] && extra="$extra --iterations 20 --tolerance 0"
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$courier" run "$algo" --graph "$graph" --ranks "$ranks" \
      --threads "$threads" $extra --json "$work/run.json" --quiet
    read -r seconds kib <"$work/time.txt"
    python3 - "$work/run.json" "$scale" "$algo" "$seconds" "$kib" "$ranks" "$threads" <<'PY' | tee -a "$jsonl"
import json, sys
run = json.load(open(sys.argv[1]))
times = run.get("times", {})
print(json.dumps({"scale": int(sys.argv[2]), "step": sys.argv[3], "ranks": int(sys.argv[6]),
                  "threads": int(sys.argv[7]), "seconds": float(sys.argv[4]),
                  "peak_rss": int(sys.argv[5]) * 1024, "times": times,
                  "verification": run.get("verification")}))
PY
  done
done
