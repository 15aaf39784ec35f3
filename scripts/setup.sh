#!/usr/bin/env bash
# Installs the Debian packages Courier builds with, only those that are missing. Idempotent.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config make
  clang libclang-rt-dev lld            # the sanitizer builds (scripts/sanitize.sh says why clang, and lld)
  libopenmpi-dev openmpi-bin          # MPI: the distributed engine (DESIGN.md says why Open MPI)
  mpich libmpich-dev                   # scripts/mpich.sh: the MPI tests against MPICH too (Open MPI stays the default)
  libfabric-dev libfabric-bin          # the ofi transport; fi_info lists the providers
  libcli11-dev libfmt-dev libcereal-dev libhwloc-dev nlohmann-json3-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgraphblas-dev                     # the la benchmark's peer (bench/la_bench.cpp); optional
  python3-jsonschema                   # the test of `courier run --json` against docs/run.schema.json
  python3-matplotlib                   # scripts/plot.py: benchmark JSON to the figures in docs/figures
  pybind11-dev python3-dev             # the courier Python module (python/), for /usr/bin/python3
  python3-numpy python3-scipy python3-networkx python3-pytest   # what it takes and its tests
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
