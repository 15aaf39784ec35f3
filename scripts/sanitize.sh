#!/usr/bin/env bash
# The test suite under sanitizers: AddressSanitizer + UndefinedBehaviorSanitizer over everything,
# ThreadSanitizer over the concurrent layers (core, net, comm, sync, and what runs on them), in
# process: TSan cannot see inside MPI's own threads and reports races there, so tests under
# mpirun (label mpi) run in the ASan build only. The ASan build uses MPICH (scripts/mpich-env.sh):
# the Release build (scripts/test.sh) runs every MPI test under Open MPI, this one under MPICH,
# so both MPIs are tested without a build of their own (issue 19).
# Both builds use clang (Debian's, with its sanitizer runtimes), the Release build g++: each file
# compiles in about 3/4 of g++'s time under the sanitizers (cold ASan + UBSan build: 1,330 against
# 1,730 s of CPU), and a second compiler's warnings and checks see what the first misses (clang's
# UBSan found a pointer offset from null that g++'s did not).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/mpich-env.sh
jobs=$(nproc)
# No Python module: an ASan-built extension loaded by an uninstrumented python3 needs the ASan
# runtime LD_PRELOADed into the interpreter (and reports the interpreter's own leaks); the module
# is a thin layer over the harness, which these builds test through C++.
# -O1 -g1 (line tables, enough for the sanitizers' stack traces): each file compiles 2-3x faster
# than at -O2 -g and the test binaries are a fraction of the size, which is most of CI's time.
# lld links a 35 MB ASan test program in a third of ld.bfd's time (0.4 s against 1.2 s).
common=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCOURIER_BUILD_BENCH=OFF -DCOURIER_PYTHON=OFF)
export CC=clang CXX=clang++

# A build configured before with another compiler, or build-asan against Open MPI (before MPICH),
# starts afresh: CMake keeps the compiler and FindMPI what it found.
for dir in build-asan build-tsan; do
  if [ -f $dir/CMakeCache.txt ] && ! grep -q 'CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' $dir/CMakeCache.txt; then
    rm -rf $dir
  fi
done
if [ -f build-asan/CMakeCache.txt ] && ! grep -q 'MPI_CXX_COMPILER:FILEPATH=/usr/bin/mpicxx.mpich' build-asan/CMakeCache.txt; then
  rm -rf build-asan
fi
cmake -S . -B build-asan "${common[@]}" -DCOURIER_SANITIZE=address,undefined "${mpich_cmake_args[@]}" >/dev/null
cmake --build build-asan --parallel "$jobs"
# The install tests build a downstream project against the installed package: packaging, which
# the Release suite checks, not memory (43 s here, the slowest pair).
ctest --test-dir build-asan --output-on-failure --parallel "$jobs" --timeout 600 -E "$mpich_known_failures" -LE install

# These labels' tests link no library above la/ (la's are its model's, with the algorithms' own
# programs), so this build leaves out the algorithms, engines and compiler.
tsan_labels='core|net|comm|sync|vertex|mailbox|la'
cmake -S . -B build-tsan "${common[@]}" -DCOURIER_SANITIZE=thread >/dev/null
targets=$(cmake --build build-tsan --target help | grep -oE '^(core|net|comm|sync|vertex|mailbox|la)_[A-Za-z0-9_]+' | sort -u)
[ -n "$targets" ] && cmake --build build-tsan --parallel "$jobs" --target $targets
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
  ctest --test-dir build-tsan --output-on-failure --parallel "$jobs" --timeout 600 -L "$tsan_labels" -LE mpi
