#!/usr/bin/env bash
# The MPI tests against MPICH in a Release build (build-mpich), beside CI's: CI runs them under
# MPICH in its ASan build (scripts/sanitize.sh). MPICH's set-up and known failures:
# scripts/mpich-env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/mpich-env.sh
cmake -S . -B build-mpich -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOURIER_BUILD_BENCH=OFF -DCOURIER_PYTHON=OFF \
  "${mpich_cmake_args[@]}" >/dev/null
# Only what the MPI tests run: the courier command and the MPI test programs.
targets=$(cmake --build build-mpich --target help | grep -oE '^(bad_inputs_mpi_test|[a-z]+_(mpi|ofi)_[A-Za-z0-9_]+)' | sort -u)
cmake --build build-mpich --parallel "$(nproc)" --target courier $targets
ctest --test-dir build-mpich -L mpi -E "$mpich_known_failures" --output-on-failure --parallel "$(nproc)" --timeout 300
