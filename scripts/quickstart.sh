#!/usr/bin/env bash
# Set-up, build, then the main job: generate a Kronecker graph and analyse it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
scale=${SCALE:-18}
mkdir -p build/data
graph=build/data/kron${scale}.csr
[ -f "$graph" ] || build/tools/courier/courier generate kron --scale "$scale" -o "$graph"
build/tools/courier/courier info "$graph"
build/tools/courier/courier run bfs --graph "$graph" --verify
build/tools/courier/courier run pagerank --graph "$graph"
