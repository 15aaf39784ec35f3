"""courier.Graph: a graph for courier.run, from a file or generator spec, numpy edge arrays, a
scipy.sparse matrix or a networkx graph."""
import os

import numpy as np

from . import _courier
from ._courier import InputError

_UINT32_MAX = np.iinfo(np.uint32).max


def _ids(array, what):
    """Vertex ids as uint64: int64 and uint64 arrays are viewed (no copy), others converted."""
    array = np.asarray(array)
    if array.size == 0:
        return np.empty(0, dtype=np.uint64)
    if array.dtype.kind not in "iu":
        raise InputError(f"{what}: vertex ids are integers, not {array.dtype}")
    if array.dtype.kind == "i" and array.size and array.min() < 0:
        raise InputError(f"{what}: vertex id {array.min()} is negative")
    if array.dtype.itemsize == 8:
        return array.view(np.uint64)
    return array.astype(np.uint64)


def _weights(weights):
    """Weights as Courier keeps them: uint32 when every weight is a whole number in [0, 2^32)
    (what sssp on the vertex and la engines needs), else float32. uint32 and float32 arrays are
    borrowed; others are converted (a copy)."""
    if weights is None:
        return None
    weights = np.asarray(weights)
    if weights.dtype in (np.uint32, np.float32):
        return weights
    if weights.dtype.kind in "biu":
        if weights.size and (weights.min() < 0 or weights.max() > _UINT32_MAX):
            raise InputError(f"integer weights run from {weights.min()} to {weights.max()}: Courier's integer "
                             f"weights are 0 to {_UINT32_MAX}; give float weights for others")
        return weights.astype(np.uint32)
    if weights.dtype.kind == "f":
        whole = np.all(np.isfinite(weights)) and np.all(weights == np.floor(weights))
        if whole and (weights.size == 0 or (weights.min() >= 0 and weights.max() <= _UINT32_MAX)):
            return weights.astype(np.uint32)
        return weights.astype(np.float32)
    raise InputError(f"weights of type {weights.dtype}: give integers or reals")


class Graph:
    """A graph for courier.run.

    Graph("road.gr"), Graph("kron:16", weights=True): a file (format by extension, as `courier info`
    reads it) or a generator spec, read by each run (by each rank its part, for distributed engines).
    Graph(matrix) for a scipy.sparse matrix, Graph(g) for a networkx graph, or the classmethods
    from_scipy, from_edges and from_networkx: a graph held in memory.

    symmetrize, drop_self_loops and dedupe transform the graph as it is loaded, as `courier run`'s
    options of those names do; weights and seed are for generators, base for text edge lists.
    """

    def __init__(self, source, *, symmetrize=False, drop_self_loops=False, dedupe=False, weights=False, seed=1,
                 base=0):
        transforms = dict(symmetrize=symmetrize, drop_self_loops=drop_self_loops, dedupe=dedupe)
        self.nodes = None  # the networkx nodes vertex ids stand for, when they are not 0..n-1
        if isinstance(source, (str, os.PathLike)):
            self._graph = _courier.Graph(os.fspath(source), weights=weights, seed=seed, base=base, **transforms)
            return
        if weights or seed != 1 or base != 0:
            raise InputError("weights, seed and base are for generator specs and files, not graphs in memory")
        if isinstance(source, Graph):
            self._graph, self.nodes = source._graph, source.nodes
        elif _is_scipy_sparse(source):
            self._graph = Graph.from_scipy(source, **transforms)._graph
        elif _is_networkx(source):
            made = Graph.from_networkx(source, **transforms)
            self._graph, self.nodes = made._graph, made.nodes
        else:
            raise InputError(f"a graph from {type(source).__name__}: give a file, a generator spec (kron:16), a "
                             "scipy.sparse matrix or a networkx graph")

    @classmethod
    def _made(cls, graph, nodes=None):
        made = cls.__new__(cls)
        made._graph, made.nodes = graph, nodes
        return made

    @classmethod
    def from_scipy(cls, matrix, *, weighted=True, name=None, symmetrize=False, drop_self_loops=False,
                   dedupe=False):
        """Row i's stored entries are vertex i's out-edges; their values are the weights unless
        weighted=False. A CSR matrix with 64-bit indices (and uint32 or float32 values) is borrowed,
        not copied; other matrices are converted first (scipy's copy)."""
        if not _is_scipy_sparse(matrix):
            raise InputError(f"from_scipy takes a scipy.sparse matrix, not {type(matrix).__name__}")
        rows, columns = matrix.shape
        if rows != columns:
            raise InputError(f"a graph's adjacency matrix is square: this one is {rows}x{columns}")
        csr = matrix.tocsr()
        name = name or f"scipy.sparse {rows}x{columns} with {csr.nnz} entries"
        weights = _weights(csr.data) if weighted else None
        return cls._made(_courier.Graph.from_csr(_ids(csr.indptr, name), _ids(csr.indices, name), weights, name,
                                                 symmetrize=symmetrize, drop_self_loops=drop_self_loops,
                                                 dedupe=dedupe))

    @classmethod
    def from_edges(cls, sources, targets, weights=None, *, num_vertices=None, name=None, symmetrize=False,
                   drop_self_loops=False, dedupe=False):
        """Edge k goes from sources[k] to targets[k] (weighing weights[k]); the vertices are
        0..num_vertices-1 (default: the largest id + 1). Copied into CSR order."""
        sources, targets = _ids(sources, "sources"), _ids(targets, "targets")
        if num_vertices is None:
            num_vertices = int(max(sources.max(initial=0), targets.max(initial=0))) + 1 if sources.size else 0
        name = name or f"edge arrays ({len(sources)} edges)"
        return cls._made(_courier.Graph.from_edges(sources, targets, _weights(weights), num_vertices, name,
                                                   symmetrize=symmetrize, drop_self_loops=drop_self_loops,
                                                   dedupe=dedupe))

    @classmethod
    def from_networkx(cls, graph, *, weight="weight", name=None, symmetrize=False, drop_self_loops=False,
                      dedupe=False):
        """A networkx graph: its nodes, in its order, are vertices 0..n-1 (Graph.nodes keeps them
        when they are anything else); an undirected edge is an edge each way. Edge attribute
        `weight` gives the weights when every edge has it (weight=None: none)."""
        nodes = list(graph)
        index = None if nodes == list(range(len(nodes))) else {node: i for i, node in enumerate(nodes)}
        edges = list(graph.edges(data=weight)) if weight else [(u, v, None) for u, v in graph.edges()]
        if not graph.is_directed():
            edges += [(v, u, w) for u, v, w in edges if u != v]
        given = [w for _, _, w in edges if w is not None]
        if given and len(given) != len(edges):
            missing = next((u, v) for u, v, w in edges if w is None)
            raise InputError(f"edge {missing} has no '{weight}' while others do: give every edge one, or weight=None")
        ids = (lambda node: node) if index is None else index.__getitem__
        sources = np.fromiter((ids(u) for u, _, _ in edges), dtype=np.uint64, count=len(edges))
        targets = np.fromiter((ids(v) for _, v, _ in edges), dtype=np.uint64, count=len(edges))
        weights = np.asarray(given) if given else None
        name = name or f"networkx {type(graph).__name__} ({len(nodes)} nodes, {graph.number_of_edges()} edges)"
        made = cls.from_edges(sources, targets, weights, num_vertices=len(nodes), name=name, symmetrize=symmetrize,
                              drop_self_loops=drop_self_loops, dedupe=dedupe)
        made.nodes = None if index is None else nodes
        return made

    @property
    def name(self):
        return self._graph.name

    @property
    def in_memory(self):
        return self._graph.in_memory

    def info(self):
        """What `courier info` says: counts, degrees, loops, duplicates, isolated vertices, weak
        components, with the transforms applied."""
        return dict(graph=self.name, **self._graph.info())

    def csr_arrays(self):
        """(offsets, targets, weights or None) as read-only numpy arrays sharing Courier's storage
        (uint64, uint64, uint32 or float32), with the transforms applied."""
        return self._graph.csr_arrays()

    def to_scipy(self):
        """The adjacency matrix as a scipy.sparse.csr_array sharing Courier's storage (read-only;
        .copy() for a writable one); values are the weights, or ones (float64) without weights."""
        import scipy.sparse

        offsets, targets, weights = self.csr_arrays()
        if len(offsets) == 0:  # Courier's empty graph has no offsets at all
            offsets = np.zeros(1, dtype=np.uint64)
        n = len(offsets) - 1
        data = weights if weights is not None else np.ones(len(targets), dtype=np.float64)
        # Built empty and given the arrays: scipy's constructor would narrow the index arrays to
        # int32 when they fit (a copy); the int64 views are what scipy keeps for large graphs.
        matrix = scipy.sparse.csr_array((n, n), dtype=data.dtype)
        matrix.indptr, matrix.indices, matrix.data = offsets.view(np.int64), targets.view(np.int64), data
        matrix.check_format(full_check=False)
        return matrix

    def vertex(self, node):
        """The vertex id of a networkx node (the id itself when the nodes are 0..n-1)."""
        if self.nodes is None:
            return node
        if not hasattr(self, "_index"):
            self._index = {v: i for i, v in enumerate(self.nodes)}
        try:
            return self._index[node]
        except KeyError:
            raise InputError(f"{node!r} is not a node of {self.name}") from None

    def __repr__(self):
        return f"courier.Graph({self.name!r}{', in memory' if self.in_memory else ''})"


def _is_scipy_sparse(value):
    try:
        import scipy.sparse
    except ImportError:
        return False
    return scipy.sparse.issparse(value)


def _is_networkx(value):
    try:
        import networkx
    except ImportError:
        return False
    return isinstance(value, networkx.Graph)
