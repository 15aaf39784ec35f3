#!/bin/sh
# Distributed loading under mpirun: each process reads its own part of a file that `courier
# convert` wrote; the values written must equal the sequential reference's byte for byte, and a
# malformed file must fail on every rank with the reader's FILE:LINE message, without hanging.
# Usage: mpirun_load.sh COURIER SCRATCH_DIR RANKS MPIEXEC [MPIEXEC FLAGS...]
set -eu
courier=$1 dir=$2 ranks=$3
shift 3
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }

for ext in wel csr mtx gr; do
  graph=$dir/g.$ext
  "$courier" convert kron:10 --weights -o "$graph" >/dev/null
  for algorithm in bfs sssp cc kcore; do
    "$courier" run $algorithm --engine seq --graph "$graph" --output "$dir/seq.txt" >/dev/null
    for policy in oec cvc; do
      "$@" "$ranks" "$courier" run $algorithm --graph "$graph" --policy $policy --threads 1 \
        --output "$dir/mpi.txt" >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt"; fail "$algorithm on $graph ($policy)"; }
      cmp -s "$dir/seq.txt" "$dir/mpi.txt" || fail "$algorithm on $graph ($policy): values differ from the reference"
    done
  done
done

# METIS: each rank counts its part's vertex lines, a scan gives its first vertex.
"$courier" convert kron:10 --symmetrize --drop-self-loops --dedupe -o "$dir/g.graph" >/dev/null
for algorithm in bfs cc; do
  "$courier" run $algorithm --engine seq --graph "$dir/g.graph" --output "$dir/seq.txt" >/dev/null
  "$@" "$ranks" "$courier" run $algorithm --graph "$dir/g.graph" --threads 1 --output "$dir/mpi.txt" \
    >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt"; fail "$algorithm on g.graph"; }
  cmp -s "$dir/seq.txt" "$dir/mpi.txt" || fail "$algorithm on g.graph: values differ from the reference"
done
printf '%% c\n4 3\n2 3 4\n1\n%%\n\n1 9\n' >"$dir/bad.graph"
if "$@" "$ranks" "$courier" run bfs --graph "$dir/bad.graph" >"$dir/log.txt" 2>&1; then fail "a malformed METIS file was accepted"; fi
grep -q "bad.graph:7: neighbour 9 is outside 1..4" "$dir/log.txt" || { cat "$dir/log.txt"; fail "METIS: no FILE:LINE message"; }

printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 x\n' >"$dir/bad.el"
if "$@" "$ranks" "$courier" run bfs --graph "$dir/bad.el" >"$dir/log.txt" 2>&1; then fail "a malformed file was accepted"; fi
grep -q "bad.el:10: target id 'x'" "$dir/log.txt" || { cat "$dir/log.txt"; fail "no FILE:LINE message"; }
# A .csr file damaged where only its checksum notices: each rank hashes its rows, all agree.
cp "$dir/g.csr" "$dir/bad.csr"
printf '\125' | dd of="$dir/bad.csr" bs=1 seek=$(($(stat -c %s "$dir/bad.csr") - 16)) conv=notrunc 2>/dev/null
if "$@" "$ranks" "$courier" run bfs --graph "$dir/bad.csr" >"$dir/log.txt" 2>&1; then fail "a corrupted .csr was accepted"; fi
grep -q "bad.csr: checksum mismatch" "$dir/log.txt" || { cat "$dir/log.txt"; fail "no checksum message"; }
grep -q "rank [0-9]* of" "$dir/log.txt" && { cat "$dir/log.txt"; fail "bad.csr: a rank failed alone (aborted run)"; }
# The mailbox engine reads in parts too: degree and cc write what seq writes (spmv's sums of reals
# in another order are checked by --verify), and a malformed file stops every rank alike.
for ext in wel csr; do
  graph=$dir/g.$ext
  for algorithm in degree cc; do
    "$courier" run $algorithm --engine seq --graph "$graph" --output "$dir/seq.txt" >/dev/null
    "$@" "$ranks" "$courier" run $algorithm --engine mailbox --graph "$graph" --output "$dir/mpi.txt" \
      >"$dir/log.txt" 2>&1 || { cat "$dir/log.txt"; fail "mailbox $algorithm on $graph"; }
    cmp -s "$dir/seq.txt" "$dir/mpi.txt" || fail "mailbox $algorithm on $graph: values differ from the reference"
  done
  "$@" "$ranks" "$courier" run spmv --engine mailbox --graph "$graph" --verify >"$dir/log.txt" 2>&1 &&
    grep -q "Verification: PASS" "$dir/log.txt" || { cat "$dir/log.txt"; fail "mailbox spmv on $graph"; }
done
if "$@" "$ranks" "$courier" run degree --engine mailbox --graph "$dir/bad.el" >"$dir/log.txt" 2>&1; then
  fail "the mailbox engine accepted a malformed file"
fi
grep -q "bad.el:10: target id 'x'" "$dir/log.txt" || { cat "$dir/log.txt"; fail "mailbox: no FILE:LINE message"; }
grep -q "rank [0-9]* of" "$dir/log.txt" && { cat "$dir/log.txt"; fail "mailbox: a rank failed alone (aborted run)"; }

# A failure on one rank only, after the agreed read checks (injected with COURIER_FAIL_ON_RANK):
# while partitioning every rank agrees on it (rank 0 speaks, MPI finalises); later the failing rank
# aborts the run (MPI_Abort). Either way the run ends (timeout's 124 would be a hang), fails with
# the failing rank's error, and writes nothing.
one_rank_fails() {
  injection=$1 expected=$2
  shift 2
  rm -f "$dir/out.txt"
  status=0
  COURIER_FAIL_ON_RANK=$injection timeout 100 "$@" >"$dir/log.txt" 2>&1 || status=$?
  [ "$status" -ne 0 ] || fail "$injection: the run succeeded"
  [ "$status" -ne 124 ] || { cat "$dir/log.txt"; fail "$injection: the run hung"; }
  grep -qF "$expected" "$dir/log.txt" || { cat "$dir/log.txt"; fail "$injection: no '$expected'"; }
  [ ! -e "$dir/out.txt" ] || fail "$injection: an output file was written"
}
last=$((ranks - 1))
for comm in lci mpi-probe; do
  one_rank_fails "$last:shuffle" "courier: error: partitioning failed on rank $last: injected failure at step 'shuffle'" \
    "$@" "$ranks" "$courier" run cc --graph kron:10 --dedupe --channel $comm --threads 1 --output "$dir/out.txt"
  one_rank_fails "$last:run" "courier: error (rank $last of $ranks): injected failure at step 'run'" \
    "$@" "$ranks" "$courier" run bfs --graph kron:10 --channel $comm --threads 1 --output "$dir/out.txt"
done
one_rank_fails "0:local graph:oom" "partitioning failed on rank 0: out of memory (std::bad_alloc)" \
  "$@" "$ranks" "$courier" run kcore --graph kron:10 --threads 1 --output "$dir/out.txt"
one_rank_fails "1:run" "courier: error (rank 1 of $ranks): injected failure at step 'run'" \
  "$@" "$ranks" "$courier" run cc --engine mailbox --graph kron:10 --output "$dir/out.txt"

echo "PASS: $ranks ranks load every format in parts"
