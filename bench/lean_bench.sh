#!/bin/sh
# Issue 16's memory and partition targets: `courier run bfs` on kron:SCALE from a .csr file (as
# generated, and symmetrized + deduplicated + without self loops, both written by courier), for 1, 2
# and 4 ranks of the local transport and every policy, each run a whole process under
# /usr/bin/time -v. Alternates the configurations REPEATS times and prints medians of: the peak
# resident memory of the process (all its ranks), the budget (1.5 x the .csr file plus 8 bytes a
# vertex for bfs's labels) and the peak over it, the bytes per edge of each structure (the run's
# JSON), and load + partition against the bfs run (target: at most 10 bfs runs at 2 ranks).
#
# BEFORE=OTHER_BUILD_DIR runs that build's courier too, alternated with this one (before/after).
# CONFIGS overrides the "RANKS POLICY" list.
#
#   bench/lean_bench.sh [BUILD_DIR] [SCALE] [REPEATS] [WORK_DIR]
#   e.g. BEFORE=../main/build bench/lean_bench.sh build 20 3 /tmp/courier-lean
set -eu
build=${1:-build} scale=${2:-20} repeats=${3:-3} work=${4:-/tmp/courier-lean-bench}
courier=$build/tools/courier/courier
builds="$courier"
[ -n "${BEFORE:-}" ] && builds="$BEFORE/tools/courier/courier $courier"
configs=${CONFIGS:-"1:oec 2:oec 2:iec 2:cvc 2:hash 4:oec 4:iec 4:cvc 4:hash"}
mkdir -p "$work"
jsonl=$work/lean.jsonl
: >"$jsonl"
directed=$work/kron$scale.csr undirected=$work/kron${scale}s.csr
[ -f "$directed" ] || "$courier" generate kron --scale "$scale" -o "$directed" >/dev/null
[ -f "$undirected" ] || "$courier" convert "$directed" --symmetrize --dedupe --drop-self-loops -o "$undirected" >/dev/null
echo "commit $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown), load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$repeats"); do
  for graph in "$directed" "$undirected"; do
    for config in $configs; do
      ranks=${config%%:*} policy=${config#*:}
      for binary in $builds; do
        /usr/bin/time -v "$binary" run bfs --graph "$graph" --ranks "$ranks" --policy "$policy" --json "$work/run.json" \
          >"$work/run.out" 2>"$work/time.txt"
        rss_kib=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
        python3 - "$work/run.json" "$graph" "$ranks" "$policy" "$rss_kib" "$(stat -L -c %s "$graph")" "$binary" \
          >>"$jsonl" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
memory = run["engine_stats"].get("memory", {})  # builds before issue 16's report have none
print(json.dumps({"graph": sys.argv[2], "ranks": int(sys.argv[3]), "policy": sys.argv[4],
                  "peak_rss": int(sys.argv[5]) * 1024, "file_bytes": int(sys.argv[6]), "build": sys.argv[7],
                  "vertices": run["vertices"], "edges": run["edges"], "times": run["times"], "memory": memory}))
PY
      done
    done
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$jsonl" <<'PY'
import json, statistics, sys, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    runs[(r["build"], r["graph"], r["ranks"], r["policy"])].append(r)
med = statistics.median
print(f"{'build':<28} {'graph':<12} {'ranks':>5} {'policy':<6} {'peak_MiB':>9} {'budget_MiB':>10} {'peak/budget':>11} {'B/edge':>7} "
      f"{'csr':>5} {'in':>5} {'proxy':>5} {'buf':>5} {'load_s':>7} {'part_s':>7} {'bfs_s':>7} {'(l+p)/bfs':>9}")
for (build, graph, ranks, policy), v in runs.items():
    peak = med(r["peak_rss"] for r in v)
    budget = 1.5 * v[0]["file_bytes"] + 8 * v[0]["vertices"]
    m = lambda key: med(r["memory"].get(key + "_bytes_per_edge", float("nan")) for r in v)
    load, part, bfs = (med(r["times"][k] for r in v) for k in ("load", "partition", "run"))
    print(f"{build[-28:]:<28} {graph.split('/')[-1]:<12} {ranks:>5} {policy:<6} {peak / 2**20:>9.1f} {budget / 2**20:>10.1f} "
          f"{peak / budget:>11.2f} {peak / v[0]['edges']:>7.1f} {m('csr'):>5.2f} {m('in_edges'):>5.2f} "
          f"{m('proxies'):>5.2f} {m('buffers'):>5.2f} {load:>7.3f} {part:>7.3f} {bfs:>7.3f} {(load + part) / bfs:>9.1f}")
PY
