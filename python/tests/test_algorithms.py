"""Every algorithm on every engine the registry offers for it, checked against networkx (or scipy,
for spmv) on small graphs: a directed weighted graph with unreachable parts and dangling vertices,
and an undirected one."""
import networkx as nx
import numpy as np
import pytest

import courier

pytestmark = pytest.mark.filterwarnings("ignore:networkx.pagerank_scipy:DeprecationWarning")

SOURCE = 0
BC_SOURCES = [0, 3, 7]


def directed_graph():
    g = nx.gnp_random_graph(40, 0.08, seed=7, directed=True)
    g.add_nodes_from(range(40, 44))  # isolated
    g.add_edges_from([(44, 45), (45, 46), (46, 44), (2, 44)])  # a cycle reached one way
    rng = np.random.default_rng(3)
    for u, v in g.edges:
        g[u][v]["weight"] = int(rng.integers(1, 20))
    return g


def undirected_graph():
    g = nx.karate_club_graph()  # its 'weight' attributes are small integers
    g.add_edge(34, 35, weight=2)  # another component
    return g


GRAPHS = {"directed": directed_graph(), "undirected": undirected_graph()}


def as_digraph(g):
    return g if g.is_directed() else g.to_directed()


def simple_undirected(g):
    u = nx.Graph(g.to_undirected())
    u.remove_edges_from(nx.selfloop_edges(u))
    return u


def per_vertex(g, mapping, default=None):
    values = [mapping.get(v, default) for v in range(g.number_of_nodes())]
    return np.array(values, dtype=np.uint64 if all(isinstance(x, int) for x in values) else np.float64)


def expected(algorithm, g):
    d = as_digraph(g)
    if algorithm == "degree":
        return per_vertex(g, dict(d.out_degree()), 0)
    if algorithm == "bfs":
        return per_vertex(g, nx.single_source_shortest_path_length(d, SOURCE), courier.UNREACHED)
    if algorithm == "sssp":
        return per_vertex(g, nx.single_source_dijkstra_path_length(d, SOURCE), courier.UNREACHED)
    if algorithm == "cc":
        labels = {v: min(c) for c in nx.weakly_connected_components(d) for v in c}
        return per_vertex(g, labels, None)
    if algorithm == "pagerank":
        # Courier's definition is networkx's default: damping 0.85, weights ignored, a dangling
        # vertex's rank spread evenly over all vertices.
        return per_vertex(g, nx.pagerank(d, alpha=0.85, weight=None, tol=1e-13, max_iter=1000), None)
    if algorithm == "tc":
        return per_vertex(g, nx.triangles(simple_undirected(g)), 0)
    if algorithm == "kcore":
        return per_vertex(g, nx.core_number(simple_undirected(g)), 0)
    if algorithm == "bc":
        # Brandes from the sources to every vertex, unnormalised, along edge directions.
        return per_vertex(g, nx.betweenness_centrality_subset(d, BC_SOURCES, list(d), normalized=False), None)
    if algorithm == "spmv":
        n = g.number_of_nodes()
        a = nx.to_scipy_sparse_array(d, nodelist=range(n), weight="weight")
        return a @ (1.0 / (np.arange(n) + 1.0))
    raise AssertionError(f"no networkx answer for {algorithm}: add one here")


def options(algorithm):
    return {"bfs": {"source": SOURCE}, "sssp": {"source": SOURCE}, "bc": {"sources": BC_SOURCES},
            "pagerank": {"tolerance": 1e-13}}.get(algorithm, {})


CASES = [(algorithm, engine) for algorithm, engines in courier.algorithms().items() for engine in engines]


@pytest.mark.parametrize("shape", ["directed", "undirected"])
@pytest.mark.parametrize("algorithm,engine", CASES, ids=[f"{a}-{e}" for a, e in CASES])
def test_matches_networkx(algorithm, engine, shape):
    g = GRAPHS[shape]
    distributed = courier.engines()[engine]["distributed"]
    result = courier.run(algorithm, g, engine=engine, ranks=2 if distributed else 1, threads=2 if distributed else 1,
                         verify=True, **options(algorithm))
    assert result.speaker and result.passed, result.verification
    want = expected(algorithm, g)
    assert result.values.shape == want.shape
    assert result.values.dtype == want.dtype
    if want.dtype == np.float64:
        np.testing.assert_allclose(result.values, want, rtol=1e-9, atol=1e-12)
    else:
        np.testing.assert_array_equal(result.values, want)


def test_every_algorithm_has_an_engine_checked():
    assert {a for a, _ in CASES} >= {"degree", "bfs", "sssp", "cc", "pagerank", "tc", "kcore", "bc", "spmv"}
    assert {e for _, e in CASES} >= {"seq", "vertex", "mailbox", "la", "dsl"}


def test_three_ranks_and_a_policy():
    g = GRAPHS["directed"]
    result = courier.run("bfs", g, engine="vertex", ranks=3, threads=1, source=SOURCE, policy="cvc")
    np.testing.assert_array_equal(result.values, expected("bfs", g))
    assert result.stats["options"]["policy"] == "cvc" and result.stats["options"]["ranks"] == 3


@pytest.mark.parametrize("engine", ["vertex", "la"])
def test_pagerank_damping_and_default_tolerance(engine):
    # Stopping when a step's L1 change is below the tolerance leaves the ranks within about
    # tolerance * d / (1 - d) of the fixed point, in L1.
    g = as_digraph(GRAPHS["directed"])
    want = per_vertex(g, nx.pagerank(g, alpha=0.7, weight=None, tol=1e-14, max_iter=1000))
    result = courier.run("pagerank", g, engine=engine, ranks=2, damping=0.7)
    assert result.stats["options"]["tolerance"] == 1e-9
    assert np.abs(result.values - want).sum() < 1e-9 * 0.7 / 0.3 * 10
    assert np.abs(result.values - per_vertex(g, nx.pagerank(g, alpha=0.85, weight=None))).sum() > 1e-3
