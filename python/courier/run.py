"""courier.run: one analysis through Courier's harness, and its Result."""
import json

import numpy as np

from . import _courier
from .graph import Graph

UNREACHED = int(np.iinfo(np.uint64).max)
"""The value of a vertex a search did not reach (bfs levels, sssp distances)."""


def _option_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, np.ndarray)):
        return ",".join(str(v) for v in value)
    return str(value)


class Result:
    """What one run gives. On every rank: speaker, rank, ranks. On the speaking rank (always
    without mpirun; rank 0 under it) also:

    values        one per vertex, a numpy array (uint64 or float64; UNREACHED for unreached)
    stats         what `courier run --json` writes: summary, times, engine_stats, options, ...
    summary       the algorithm's own summary (stats["summary"])
    times         seconds by phase, "run" the algorithm's (stats["times"])
    verification  None unless verify=True; then {"verifier", "mismatch", "passed"}
    passed        False only when verification found a mismatch
    """

    def __init__(self, raw, graph):
        self.speaker, self.rank, self.ranks = raw["speaker"], raw["rank"], raw["ranks"]
        self._graph = graph
        self.values = self.stats = self.summary = self.times = self.verification = None
        if not self.speaker:
            self.passed = True
            return
        self.values = raw["values"]
        self.stats = json.loads(raw["json"])
        self.summary, self.times = self.stats["summary"], self.stats["times"]
        self.vertices, self.edges = raw["vertices"], raw["edges"]
        self.run_seconds, self.phases = raw["run_seconds"], raw["phases"]
        self.description, self.summary_lines = raw["description"], raw["summary_lines"]
        self.engine_details = raw["engine_details"]
        self.verification = raw["verification"]
        self.passed = self.verification is None or self.verification["passed"]

    def by_node(self):
        """The values as {node: value}, in the graph's own nodes (networkx graphs) or ids."""
        nodes = self._graph.nodes if self._graph.nodes is not None else range(len(self.values))
        return dict(zip(nodes, self.values.tolist()))

    def __repr__(self):
        if not self.speaker:
            return f"<courier.Result of rank {self.rank} of {self.ranks}: rank 0 speaks for the run>"
        return (f"<courier.Result {self.stats['algorithm']} on {self.stats['graph']} ({self.description}): "
                f"{self.run_seconds:.6f} s{'' if self.verification is None else ', verified' if self.passed else ', FAILED'}>")


def run(algorithm, graph, engine="vertex", ranks=1, threads=2, comm="auto", source=None, verify=False, **options):
    """Runs `algorithm` on `graph` with `engine`, as `courier run` would, and returns a Result.

    graph      a courier.Graph, or anything Graph() takes (a file, a generator spec, a scipy.sparse
               matrix, a networkx graph)
    engine     as courier.algorithms() says which run each algorithm: vertex, mailbox, la, dsl, seq
    ranks      ranks as threads of this process (the local transport); under mpirun the launched
               processes are the ranks and this is ignored
    threads    compute threads per rank
    comm       'auto' (MPI under mpirun for distributed engines, else threads), 'local' or 'mpi'
    source     the start vertex (bfs, sssp): an id, or a node of a networkx graph
    verify     check the result (Result.verification)
    options    the engines' and algorithms' options by name, as `courier list` shows them, with _
               for - (policy="cvc", damping=0.9, sources=[0, 5], pin=False)

    The GIL is released while Courier runs. Courier's errors raise courier.Error (courier.InputError,
    also a ValueError, for bad input). Ctrl-C raises KeyboardInterrupt: the vertex, dsl and la
    engines stop at their next round, seq and the mailbox when the run returns.
    """
    if not isinstance(graph, Graph):
        graph = Graph(graph)
    given = dict(options)
    if source is not None:
        given["source"] = graph.vertex(source)
    text = {name.replace("_", "-"): _option_text(value) for name, value in given.items()}
    raw = _courier.run(algorithm, graph._graph, engine, ranks, threads, comm, verify, text)
    return Result(raw, graph)
