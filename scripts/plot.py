#!/usr/bin/python3
"""Benchmark JSON (bench/results/) to PNG figures (docs/figures/), the ones the README and
bench/RESULTS.md show. Each figure is drawn from the most recently committed result file of its
benchmark, and names that file's commit. Regenerate them all with:

    scripts/plot.py [--results bench/results] [--out docs/figures]

Debian's python3-matplotlib draws them (scripts/setup.sh installs it)."""
import argparse
import collections
import glob
import json
import os
import statistics
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402


def newest(results, pattern):
    """The file matching `pattern` committed last (else modified last): (path, its commit)."""
    paths = glob.glob(os.path.join(results, pattern))
    if not paths:
        return None, None

    def when(path):
        stamp = subprocess.run(["git", "log", "-1", "--format=%ct", "--", os.path.basename(path)], cwd=results,
                               capture_output=True, text=True).stdout.strip()
        return int(stamp) if stamp else int(os.path.getmtime(path))

    path = max(paths, key=when)
    return path, os.path.splitext(path)[0].rsplit("-", 1)[-1]


def load(path):
    with open(path) as file:
        return json.load(file)


def rows_of(document):
    return document["rows"] if isinstance(document, dict) else document


def save(figure, out, name, *sources):
    names = ", ".join(os.path.basename(source) for source in sources)
    figure.text(0.99, 0.01, f"from {names}", ha="right", va="bottom", fontsize=7, color="grey")
    figure.tight_layout(rect=(0, 0.03, 1, 1))
    path = os.path.join(out, name)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def grouped_bars(axes, groups, series, value, ylabel):
    """Bars for each group (x) and series (colour); value(group, series) or None."""
    width = 0.8 / max(1, len(series))
    for i, name in enumerate(series):
        xs, ys = [], []
        for g, group in enumerate(groups):
            v = value(group, name)
            if v is not None:
                xs.append(g + (i - (len(series) - 1) / 2) * width)
                ys.append(v)
        axes.bar(xs, ys, width, label=name)
    axes.set_xticks(range(len(groups)), [" ".join(g) if isinstance(g, tuple) else g for g in groups], rotation=30,
                    ha="right", fontsize=8)
    axes.set_ylabel(ylabel)
    axes.legend(fontsize=8)


def sync_layers(results, out):
    """Table II at this scale: each kernel's time on each sync layer, relative to lci."""
    panels = []
    for ranks in ("2ranks", "4ranks"):
        path, _ = newest(results, f"engine_bench-{ranks}-[0-9a-f]*.json")  # Open MPI's (MPICH's say -mpich-)
        if path:
            panels.append((ranks, path))
    if not panels:
        return None
    figure, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4), squeeze=False)
    for axis, (ranks, path) in zip(axes[0], panels):
        times = collections.defaultdict(list)
        for row in rows_of(load(path)):
            times[(row["graph"], row["kernel"], row.get("channel", row.get("layer")))].append(row["seconds"])
        groups = sorted({(g, k) for g, k, _ in times})
        layers = [layer for layer in ("lci", "mpi-probe", "mpi-rma") if any(key[2] == layer for key in times)]

        def relative(group, layer):
            mine, lci = times.get((*group, layer)), times.get((*group, "lci"))
            return statistics.median(mine) / statistics.median(lci) if mine and lci else None

        grouped_bars(axis, groups, layers, relative, "time / lci's time (median)")
        axis.axhline(1, color="black", linewidth=0.5)
        axis.set_title(f"vertex engine, sync layers, {ranks.replace('ranks', ' ranks')}")
    return save(figure, out, "sync_layers.png", *(path for _, path in panels))


def message_rate(results, out):
    """The runtime against MPI: 64 B message rate by threads, and latency by size."""
    path, _ = newest(results, "comm_mpi_bench-[0-9a-f]*.json")  # Open MPI's (MPICH's say -mpich-)
    if not path:
        return None
    rows = rows_of(load(path))
    figure, (rate_axis, latency_axis) = plt.subplots(1, 2, figsize=(12, 4))
    rates = {(r["variant"], r["threads"]): r["result"] for r in rows if r["measure"] == "messages_per_s"}
    variants = sorted({v for v, _ in rates})
    threads = sorted({t for _, t in rates})
    grouped_bars(rate_axis, variants, [f"{t} thread{'s' if t > 1 else ''}" for t in threads],
                 lambda v, label: (rates.get((v, int(label.split()[0]))) or 0) / 1e6 or None, "M messages/s")
    rate_axis.set_title("message rate, 2 ranks")
    for variant in sorted({r["variant"] for r in rows if r["measure"] == "latency_us"}):
        points = sorted((r["size"], r["result"]) for r in rows if r["measure"] == "latency_us" and r["variant"] == variant)
        latency_axis.plot([p[0] for p in points], [p[1] for p in points], marker="o", markersize=3, label=variant)
    latency_axis.set_xscale("log", base=2)
    latency_axis.set_yscale("log")
    latency_axis.set_xlabel("message bytes")
    latency_axis.set_ylabel("one-way latency (us)")
    latency_axis.set_title("latency, ping-pong")
    latency_axis.legend(fontsize=7)
    return save(figure, out, "message_rate.png", path)


def mailbox_routing(results, out):
    """The mailbox's routing schemes: measured bytes per remote batch against section III-E's model."""
    path, _ = newest(results, "mailbox_bench-routing-local-*.json")
    if not path:
        return None
    rows = [r for r in rows_of(load(path)) if r.get("part", "routing") == "routing"]
    schemes = ["noroute", "node-local", "node-remote", "nlnr"]
    groups = sorted({(r["application"], r["graph"], r["layout"]) for r in rows})
    figure, (batch_axis, rate_axis) = plt.subplots(1, 2, figsize=(13, 4.5))
    by = {(r["application"], r["graph"], r["layout"], r["routing"]): r for r in rows}
    # Per scheme one colour: the measured batch filled, the model's prediction as an outline over it.
    width = 0.8 / len(schemes)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, scheme in enumerate(schemes):
        at = [(g + (i - (len(schemes) - 1) / 2) * width, by[(*group, scheme)]) for g, group in enumerate(groups)
              if (*group, scheme) in by]
        xs = [x for x, _ in at]
        batch_axis.bar(xs, [r["average_remote_batch_bytes"] / 1024 for _, r in at], width, color=colours[i],
                       label=f"{scheme} measured")
        batch_axis.bar(xs, [r["model_average_bytes"] / 1024 for _, r in at], width, fill=False,
                       edgecolor=colours[i], linestyle="--", label=f"{scheme} model")
    batch_axis.set_xticks(range(len(groups)), [" ".join(g) for g in groups], rotation=30, ha="right", fontsize=8)
    batch_axis.set_ylabel("KiB per remote batch")
    batch_axis.set_title("routing: batch size, measured (filled) and modelled (outline)")
    batch_axis.legend(fontsize=6, ncol=2)
    grouped_bars(rate_axis, groups, schemes,
                 lambda g, s: by[(*g, s)]["msgs_per_s_per_rank"] / 1e6 if (*g, s) in by else None,
                 "M messages/s per rank")
    rate_axis.set_title("routing: message rate")
    return save(figure, out, "mailbox_routing.png", path)


def la_spectrum(results, out):
    """Graphite's (pi, t) spectrum at pi x t = 4 (Fig. 7): the la engine's time per shape."""
    path, _ = newest(results, "la_bench-spectrum-*.json")
    if not path:
        return None
    rows = rows_of(load(path))
    shapes = sorted({r["shape"] for r in rows}, key=lambda s: int(s.split("x")[0]))
    groups = sorted({(r["graph"], r["kernel"]) for r in rows})
    by = {(r["graph"], r["kernel"], r["shape"]): r["la_median"] for r in rows}
    figure, axis = plt.subplots(figsize=(8, 4))
    grouped_bars(axis, groups, [f"{s} (ranks x threads)" for s in shapes],
                 lambda g, s: by.get((*g, s.split()[0])), "seconds (median)")
    axis.set_title("la engine: the (pi, t) spectrum at pi x t = 4")
    return save(figure, out, "la_spectrum.png", path)


FIGURES = [sync_layers, message_rate, mailbox_routing, la_spectrum]


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=os.path.join(root, "bench", "results"))
    parser.add_argument("--out", default=os.path.join(root, "docs", "figures"))
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    drawn = 0
    for figure in FIGURES:
        path = figure(arguments.results, arguments.out)
        if path:
            print(f"plot: {path}")
            drawn += 1
        else:
            print(f"plot: {figure.__name__}: no results in {arguments.results}", file=sys.stderr)
    return 0 if drawn == len(FIGURES) else 1


if __name__ == "__main__":
    sys.exit(main())
