#!/usr/bin/env bash
# The MPI tests against MPICH as well as Open MPI (issue 19): Debian's MPICH is installed beside
# Open MPI (which stays the default: its alternatives priority is higher), Courier is built in
# build-mpich with MPICH's compiler wrapper and its launcher (Hydra), and the tests labelled mpi run
# there. Not part of .ci/run yet: a second full build does not fit CI's time.
#
# Known failures under MPICH 4.0.2 on this 2-core machine kind, excluded below so that anything
# else that fails stands out (bench/RESULTS.md, "MPICH"):
#   load_in_parts          its fault-injection part expects the failing rank's "courier: error
#                          (rank R of N)" line, which Hydra sometimes drops when MPI_Abort ends
#                          the job (seen at 2 ranks in one run and at 3 in another).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
known_failures='mpirun\.load_in_parts'

cmake -S . -B build-mpich -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOURIER_BUILD_BENCH=OFF -DCOURIER_PYTHON=OFF \
  -DMPI_CXX_COMPILER=/usr/bin/mpicxx.mpich -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich >/dev/null
cmake --build build-mpich --parallel "$(nproc)"
ctest --test-dir build-mpich -L mpi -E "$known_failures" --output-on-failure --parallel "$(nproc)" --timeout 300
