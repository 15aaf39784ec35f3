#!/bin/sh
# Partitioned .csr files under mpirun: a file written for this rank count and a policy is taken
# part by part as written, and every algorithm's values equal the sequential reference's on the
# plain file; a file written for another run is partitioned again (said in -v); a damaged part
# fails on every rank with the part's bytes, without hanging or aborting.
# Usage: mpirun_partitioned.sh COURIER SCRATCH_DIR RANKS MPIEXEC [MPIEXEC FLAGS...]
set -eu
courier=$1 dir=$2 ranks=$3
shift 3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }

"$courier" convert kron:10 --weights -o "$dir/plain.csr" >/dev/null
for algorithm in bfs sssp cc; do
  "$courier" run $algorithm --engine seq --graph "$dir/plain.csr" --output "$dir/seq.$algorithm.txt" >/dev/null
done
for policy in oec iec cvc hash; do
  "$courier" convert "$dir/plain.csr" --partition "$ranks" --policy $policy -o "$dir/p.csr" >/dev/null
  for algorithm in bfs sssp cc pagerank; do
    "$@" "$ranks" "$courier" run $algorithm --graph "$dir/p.csr" --policy $policy --threads 1 --verify -v \
      --output "$dir/mpi.txt" >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt"; fail "$algorithm ($policy)"; }
    grep -q "Verification: PASS" "$dir/log.txt" || { cat "$dir/log.txt"; fail "$algorithm ($policy): no PASS"; }
    grep -q "took its part of .* as written" "$dir/log.txt" || { cat "$dir/log.txt"; fail "$algorithm ($policy): partitioned"; }
    [ $algorithm = pagerank ] || cmp -s "$dir/seq.$algorithm.txt" "$dir/mpi.txt" ||
      fail "$algorithm ($policy): values differ from the reference"
  done
done

# Written for another policy: partitioned again, the same values.
"$@" "$ranks" "$courier" run cc --graph "$dir/p.csr" --policy oec --threads 1 -v --output "$dir/mpi.txt" \
  >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt"; fail "cc on a file for another policy"; }
grep -q "partitioned for $ranks ranks, policy hash, and this run has $ranks ranks, policy oec" "$dir/log.txt" ||
  { cat "$dir/log.txt"; fail "no note for a file written for another policy"; }
cmp -s "$dir/seq.cc.txt" "$dir/mpi.txt" || fail "cc on a file for another policy: values differ"

# A damaged part (a weight near the end: the last part's in-edges, which bfs reads) fails on every
# rank alike.
cp "$dir/p.csr" "$dir/bad.csr"
printf '\125' | dd of="$dir/bad.csr" bs=1 seek=$(($(stat -c %s "$dir/bad.csr") - 16)) conv=notrunc 2>/dev/null
if "$@" "$ranks" "$courier" run bfs --graph "$dir/bad.csr" --policy hash --threads 1 >"$dir/log.txt" 2>&1; then
  fail "a damaged part was accepted"
fi
grep -q "bad.csr: checksum mismatch in part $((ranks - 1)) of $ranks (its in-edges), bytes" "$dir/log.txt" ||
  { cat "$dir/log.txt"; fail "no message naming the damaged part"; }
grep -q "rank [0-9]* of" "$dir/log.txt" && { cat "$dir/log.txt"; fail "a rank failed alone (aborted run)"; }

echo "PASS: $ranks ranks take their parts of a partitioned .csr"
