#!/bin/sh
# Issue 16's load target with partitioned .csr files: `courier run bfs` on the symmetrized
# kron:SCALE (symmetrized, deduplicated, no self loops) at RANKS ranks of the local transport and
# policy POLICY, from the plain .csr and from one written with `convert --partition RANKS --policy
# POLICY` (RANKS=2, POLICY=oec unless set; DIRECTED=1: kron:SCALE as generated instead), alternated
# REPEATS times, each run a whole process under /usr/bin/time -v. Prints the
# medians of load, partition and bfs seconds (the run's JSON), load + partition over bfs (target:
# at most 10), the peak resident memory of the process and that peak over the budget (1.5 x the
# plain .csr file plus 8 bytes a vertex for bfs's labels; target: at most 1), and the file sizes.
#
#   bench/partitioned_bench.sh [BUILD_DIR] [SCALE] [REPEATS] [WORK_DIR]
#   e.g. bench/partitioned_bench.sh build 20 5 /tmp/courier-partitioned
set -eu
build=${1:-build} scale=${2:-20} repeats=${3:-5} work=${4:-/tmp/courier-partitioned-bench}
ranks=${RANKS:-2} policy=${POLICY:-oec}
courier=$build/tools/courier/courier
mkdir -p "$work"
jsonl=$work/runs.jsonl
: >"$jsonl"
[ -f "$work/kron$scale.csr" ] || "$courier" generate kron --scale "$scale" -o "$work/kron$scale.csr" >/dev/null
[ -f "$work/kron${scale}s.csr" ] ||
  "$courier" convert "$work/kron$scale.csr" --symmetrize --dedupe --drop-self-loops -o "$work/kron${scale}s.csr" >/dev/null
name=kron${scale}s
[ "${DIRECTED:-0}" = 1 ] && name=kron$scale
plain=$work/$name.csr parted=$work/$name-$ranks$policy.csr
"$courier" convert "$plain" --partition "$ranks" --policy "$policy" -o "$parted" >/dev/null
echo "commit $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$repeats"); do
  for graph in "$plain" "$parted"; do
    /usr/bin/time -v "$courier" run bfs --graph "$graph" --ranks "$ranks" --policy "$policy" --json "$work/run.json" \
      >"$work/run.out" 2>"$work/time.txt"
    rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
    python3 - "$work/run.json" "$graph" "$rss_kib" "$(stat -L -c %s "$plain")" "$(stat -L -c %s "$graph")" \
      >>"$jsonl" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
print(json.dumps({"graph": sys.argv[2], "peak_rss": int(sys.argv[3]) * 1024, "plain_bytes": int(sys.argv[4]),
                  "file_bytes": int(sys.argv[5]), "vertices": run["vertices"], "times": run["times"],
                  "memory": run["engine_stats"]["memory"]}))
PY
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$jsonl" <<'PY'
import json, statistics, sys, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[r["graph"]].append(r)
med = statistics.median
print(f"{'graph':<20} {'file_MiB':>8} {'load_s':>7} {'part_s':>7} {'bfs_s':>7} {'(l+p)/bfs':>9} {'peak_MiB':>9} "
      f"{'budget_MiB':>10} {'peak/budget':>11} {'graph_B/edge':>12}")
for graph, v in runs.items():
    load, part, bfs = (med(r["times"][k] for r in v) for k in ("load", "partition", "run"))
    peak = med(r["peak_rss"] for r in v)
    budget = 1.5 * v[0]["plain_bytes"] + 8 * v[0]["vertices"]
    print(f"{graph.split('/')[-1]:<20} {v[0]['file_bytes'] / 2**20:>8.1f} {load:>7.3f} {part:>7.3f} {bfs:>7.3f} "
          f"{(load + part) / bfs:>9.1f} {peak / 2**20:>9.1f} {budget / 2**20:>10.1f} {peak / budget:>11.2f} "
          f"{med(r['memory']['graph_bytes_per_edge'] for r in v):>12.2f}")
PY
