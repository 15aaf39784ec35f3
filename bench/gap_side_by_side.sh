#!/bin/bash
# GAP against Courier at 1 rank x 2 threads on the same symmetrized kron:20, alternated (GAP, then
# Courier, per kernel, five times); kernel times only (GAP's Average Time, Courier's times.run).
# GAP is built outside the repository; the graph is made once:
#   (cd /tmp && git clone https://github.com/sbeamer/gapbs && make -C gapbs bfs cc pr converter)
#   courier convert kron:20 --symmetrize --dedupe --drop-self-loops -o /tmp/k20sym.csr
#   courier convert /tmp/k20sym.csr -o /tmp/k20sym.el && tail -n +2 /tmp/k20sym.el > /tmp/k20sym_gap.el
#   /tmp/gapbs/converter -f /tmp/k20sym_gap.el -s -b /tmp/k20sym.sg
# The bfs source is Courier's default (the largest degree), given to GAP with -r. ENGINE picks
# Courier's engine (vertex, or la for issue 14's pagerank).
set -euo pipefail
C=${COURIER:-build/tools/courier/courier}; G=${GAPBS:-/tmp/gapbs}; S=${SOURCE:-638953}; E=${ENGINE:-vertex}
export OMP_NUM_THREADS=2
for i in 1 2 3 4 5; do
  g=$($G/bfs -f /tmp/k20sym.sg -r $S -n 3 | awk '/Average Time/{print $3}')
  $C run bfs --engine $E --graph /tmp/k20sym.csr --ranks 1 --threads 2 --source $S --json /tmp/cb.json >/dev/null 2>&1
  c=$(python3 -c "import json;print(json.load(open('/tmp/cb.json'))['times']['run'])")
  gc=$($G/cc -f /tmp/k20sym.sg -n 3 | awk '/Average Time/{print $3}')
  $C run cc --engine $E --graph /tmp/k20sym.csr --ranks 1 --threads 2 --json /tmp/cc.json >/dev/null 2>&1
  cc=$(python3 -c "import json;print(json.load(open('/tmp/cc.json'))['times']['run'])")
  gp=$($G/pr -f /tmp/k20sym.sg -n 1 -i 20 -t 0 | awk '/Average Time/{print $3}')
  $C run pagerank --engine $E --graph /tmp/k20sym.csr --ranks 1 --threads 2 --iterations 20 --tolerance 0 --json /tmp/cp.json >/dev/null 2>&1
  cp=$(python3 -c "import json;print(json.load(open('/tmp/cp.json'))['times']['run'])")
  echo "bfs gap $g courier $c | cc gap $gc courier $cc | pr gap $gp courier $cp"
done
