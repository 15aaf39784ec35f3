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

printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 x\n' >"$dir/bad.el"
if "$@" "$ranks" "$courier" run bfs --graph "$dir/bad.el" >"$dir/log.txt" 2>&1; then fail "a malformed file was accepted"; fi
grep -q "bad.el:10: target id 'x'" "$dir/log.txt" || { cat "$dir/log.txt"; fail "no FILE:LINE message"; }
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

echo "PASS: $ranks ranks load every format in parts"
