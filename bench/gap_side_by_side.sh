#!/bin/bash
# GAP against Courier at 1 rank x 2 threads on the same symmetrized kron:20, alternated (GAP, then
# Courier, per kernel, ROUNDS times; medians at the end). Kernel times only: Courier's times.run (one
# run, its labels allocated and first touched inside it) against GAP's first trial ("gap1", the
# same: GAP allocates its labels in each trial) and the average of its three trials ("gap3", whose
# later trials reuse the memory the first one touched).
# GAP is built outside the repository; the graphs are made once:
#   (cd /tmp && git clone https://github.com/sbeamer/gapbs && make -C gapbs bfs cc pr sssp converter)
#   courier convert kron:20 --symmetrize --dedupe --drop-self-loops -o /tmp/k20sym.csr
#   courier convert /tmp/k20sym.csr -o /tmp/k20sym.el && tail -n +2 /tmp/k20sym.el > /tmp/k20sym_gap.el
#   /tmp/gapbs/converter -f /tmp/k20sym_gap.el -s -b /tmp/k20sym.sg
#   courier convert kron:20 --weights --symmetrize --dedupe --drop-self-loops -o /tmp/k20symw.csr
#   courier convert /tmp/k20symw.csr -o /tmp/k20symw.wel && tail -n +2 /tmp/k20symw.wel > /tmp/k20symw_gap.wel
#   /tmp/gapbs/converter -f /tmp/k20symw_gap.wel -s -w -b /tmp/k20symw.wsg
# The bfs and sssp source is Courier's default (the largest degree), given to GAP with -r. sssp runs
# each at its fastest bucket width on this graph (weights 1-255): GAP's -d 1 (1: 0.19-0.23 s, 2:
# 0.23-0.29, 8: 0.32, 32: 0.54), Courier's --delta 8 (4-16 within noise of each other, 32 ~10% slower).
# ENGINE picks Courier's engine (vertex, or la for issue 14's pagerank).
set -euo pipefail
C=${COURIER:-build/tools/courier/courier}; G=${GAPBS:-/tmp/gapbs}; S=${SOURCE:-638953}; E=${ENGINE:-vertex}
ROUNDS=${ROUNDS:-5}
export OMP_NUM_THREADS=2
gap() { "$G/$1" "${@:2}" -n 3 | awk '/Trial Time/ && !first {first=$3} /Average Time/ {print first, $3}'; }
courier() {
  $C run "$1" --engine $E --ranks 1 --threads 2 "${@:2}" --json /tmp/gap_side.json >/dev/null 2>&1
  python3 -c "import json; print(json.load(open('/tmp/gap_side.json'))['times']['run'])"
}
out=$(mktemp)
for _ in $(seq "$ROUNDS"); do
  echo "bfs $(gap bfs -f /tmp/k20sym.sg -r $S) $(courier bfs --graph /tmp/k20sym.csr --source $S)"
  echo "cc $(gap cc -f /tmp/k20sym.sg) $(courier cc --graph /tmp/k20sym.csr)"
  echo "pagerank $(gap pr -f /tmp/k20sym.sg -i 20 -t 0) $(courier pagerank --graph /tmp/k20sym.csr --iterations 20 --tolerance 0)"
  echo "sssp $(gap sssp -f /tmp/k20symw.wsg -r $S -d 1) $(courier sssp --graph /tmp/k20symw.csr --source $S --delta 8)"
done | tee "$out"
echo "medians (s): kernel gap1 gap3 courier, courier/gap1 courier/gap3"
python3 - "$out" <<'EOF'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    k, *t = line.split()
    rows.setdefault(k, []).append([float(x) for x in t])
for k, runs in rows.items():
    g1, g3, c = (statistics.median(r[i] for r in runs) for i in range(3))
    print(f"{k} {g1:.4f} {g3:.4f} {c:.4f} {c / g1:.2f} {c / g3:.2f}")
EOF
rm -f "$out"
