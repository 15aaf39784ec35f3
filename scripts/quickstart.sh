#!/usr/bin/env bash
# Set-up, build, then the main job: generate a Graph500 Kronecker graph and analyse it on several
# ranks with the distributed engine (ranks as threads of one process: no launcher needed), each
# result verified. Under a launcher the same commands run as `mpirun -np N courier run ...`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scale=${SCALE:-18}
ranks=${RANKS:-4}
courier=build/tools/courier/courier
mkdir -p build/data
graph=build/data/kron${scale}.csr  # made anew: a file left by another command may differ (e.g. no weights)
# Graph500 graphs are undirected: symmetrize once, when the file is made.
$courier convert "kron:${scale}" --weights --symmetrize -o "$graph"
$courier info "$graph"
for algorithm in bfs cc sssp pagerank; do
  echo
  $courier run "$algorithm" --graph "$graph" --ranks "$ranks" --policy cvc --verify
done
