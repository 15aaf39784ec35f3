#!/usr/bin/env bash
# Fuzzes every graph reader for SECONDS each (default 60) with libFuzzer (clang, ASan + UBSan),
# starting from the committed corpus (fuzz/corpus/NAME); new interesting inputs go to
# build-fuzz/corpus/NAME, findings to build-fuzz/findings/NAME. CI only replays the corpus.
#   scripts/fuzz.sh [SECONDS] [NAME ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(text matrix_market dimacs galois metis binary csr mailbox_codec sync_encoding)
command -v clang++ >/dev/null || { echo "fuzz: needs clang (apt-get install clang)" >&2; exit 1; }
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DCOURIER_FUZZ=ON -DCOURIER_SANITIZE=address,undefined -DCOURIER_WITH_MPI=OFF \
  -DCOURIER_WITH_OFI=OFF -DCOURIER_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS="-Wno-error" >/dev/null
cmake --build build-fuzz --target $(printf 'fuzz_%s ' "${names[@]}")
for name in "${names[@]}"; do
  mkdir -p "build-fuzz/corpus/$name" "build-fuzz/findings/$name"
  echo "fuzz: $name for $seconds s"
  COURIER_FUZZ_DIR=/dev/shm "build-fuzz/fuzz/fuzz_$name" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -max_len=4096 -artifact_prefix="build-fuzz/findings/$name/" "build-fuzz/corpus/$name" "fuzz/corpus/$name" \
    2>&1 | grep -E "^#[0-9]+ +DONE|ERROR|SUMMARY|Done [0-9]+ runs" || true
done
