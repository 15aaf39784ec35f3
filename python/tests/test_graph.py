"""courier.Graph: from files, generator specs, numpy edge arrays, scipy.sparse and networkx; what
it borrows and what it copies; info() and to_scipy()."""
import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import courier


def test_a_generator_spec_and_its_info():
    g = courier.Graph("kron:8", symmetrize=True, drop_self_loops=True, dedupe=True)
    info = g.info()
    m = g.to_scipy()
    assert info["graph"] == "kron:8" and info["vertices"] == 256 == m.shape[0]
    assert info["edges"] == m.nnz and info["self_loops"] == 0 and info["duplicate_edges"] == 0
    assert (m != m.T).nnz == 0  # symmetric
    u = nx.from_scipy_sparse_array(m)
    assert info["components"] == nx.number_connected_components(u)
    assert info["largest_component"] == max(len(c) for c in nx.connected_components(u))
    assert info["isolated_vertices"] == nx.number_of_isolates(u)


def test_a_file_with_ids_from_one(tmp_path):
    path = tmp_path / "tiny.el"
    path.write_text("1 2 5\n2 3 7\n3 1 1\n")
    g = courier.Graph(path, base=1)
    m = g.to_scipy()
    assert m.shape == (3, 3) and m.dtype == np.uint32
    assert m.toarray().tolist() == [[0, 5, 0], [0, 0, 7], [1, 0, 0]]
    assert courier.run("sssp", g, engine="seq", source=0).values.tolist() == [0, 5, 12]


def test_scipy_csr_with_64_bit_indices_is_borrowed_and_round_trips():
    rng = np.random.default_rng(1)
    m = scipy.sparse.random(50, 50, density=0.1, format="csr", random_state=2, dtype=np.float32)
    m.indptr, m.indices = m.indptr.astype(np.int64), m.indices.astype(np.int64)
    g = courier.Graph.from_scipy(m)
    offsets, targets, weights = g.csr_arrays()
    assert np.shares_memory(offsets, m.indptr) and np.shares_memory(targets, m.indices)
    assert np.shares_memory(weights, m.data)
    assert not targets.flags.writeable
    back = g.to_scipy()
    assert (back != m).nnz == 0
    assert np.shares_memory(back.indices, m.indices)  # to_scipy shares Courier's storage too
    x = rng.random(50)
    np.testing.assert_allclose(back @ x, m @ x, rtol=1e-6)


def test_scipy_int32_indices_and_float64_weights_are_converted():
    m = scipy.sparse.csr_matrix(np.array([[0, 2.0, 0], [0, 0, 3.5], [0, 0, 0]]))
    g = courier.Graph(m)
    assert g.info()["weights"] == "float"
    assert not np.shares_memory(g.csr_arrays()[1], m.indices)
    whole = courier.Graph(scipy.sparse.coo_matrix(np.array([[0, 2.0], [4.0, 0]])))
    assert whole.info()["weights"] == "uint32"  # whole numbers: integer weights, as sssp wants
    assert courier.Graph.from_scipy(m, weighted=False).info()["weights"] == "none"


def test_edge_arrays_with_weights_and_isolated_vertices():
    g = courier.Graph.from_edges(np.array([0, 0, 2]), np.array([1, 2, 3], dtype=np.int32), [4, 1, 1],
                                 num_vertices=6)
    info = g.info()
    assert (info["vertices"], info["edges"], info["weights"], info["isolated_vertices"]) == (6, 3, "uint32", 2)
    assert courier.run("sssp", g, ranks=2, source=0).values.tolist() == [0, 4, 1, 2] + [courier.UNREACHED] * 2


def test_networkx_nodes_that_are_not_ids():
    g = nx.DiGraph([("a", "b"), ("b", "c"), ("x", "y")])
    graph = courier.Graph(g)
    assert graph.nodes == ["a", "b", "c", "x", "y"]
    result = courier.run("bfs", graph, engine="seq", source="a")
    assert result.by_node() == {"a": 0, "b": 1, "c": 2, "x": courier.UNREACHED, "y": courier.UNREACHED}
    with pytest.raises(courier.InputError, match="'q' is not a node"):
        courier.run("bfs", graph, source="q")


def test_undirected_networkx_graph_is_both_directions():
    g = nx.path_graph(4)
    info = courier.Graph(g).info()
    assert info["edges"] == 6 and info["weights"] == "none"
    assert courier.run("degree", g, engine="seq").values.tolist() == [1, 2, 2, 1]


def test_graphs_without_edges_or_vertices():
    g = courier.Graph.from_edges([], [], num_vertices=3)
    assert courier.run("cc", g, ranks=2).values.tolist() == [0, 1, 2]
    empty = courier.Graph.from_edges([], [])
    assert empty.info()["vertices"] == 0 and empty.to_scipy().shape == (0, 0)
    assert courier.run("cc", empty, engine="seq").values.tolist() == []
    assert courier.Graph(scipy.sparse.csr_matrix((0, 0))).info()["vertices"] == 0


def test_values_own_their_storage():
    result = courier.run("cc", "kron:6", engine="seq")
    values = result.values
    del result
    assert values.flags.owndata is False and values.base is not None  # the capsule owning the moved vector
    values[0] = 7  # writable: it is the caller's now
    assert values[0] == 7


def test_bad_graphs_say_what_is_wrong():
    with pytest.raises(courier.InputError, match="square"):
        courier.Graph(scipy.sparse.csr_matrix((3, 4)))
    with pytest.raises(courier.InputError, match="negative"):
        courier.Graph.from_edges([0, -1], [1, 0])
    with pytest.raises(courier.InputError, match="beyond the 2 vertices"):
        courier.Graph.from_edges([0, 1], [1, 2], num_vertices=2)
    with pytest.raises(courier.InputError, match="is not a vertex of 2"):
        courier.Graph.from_scipy(_square_with_bad_index())
    with pytest.raises(courier.InputError, match="0 to 4294967295"):
        courier.Graph.from_edges([0], [1], [-3])
    with pytest.raises(courier.InputError, match="is a file"):
        courier.Graph(__file__.replace(".py", ".el"), weights=True)
    with pytest.raises(courier.InputError, match="unknown graph format"):
        courier.Graph(__file__)
    with pytest.raises(courier.InputError, match="a graph from int"):
        courier.Graph(5)


def _square_with_bad_index():  # scipy's own constructors refuse it; Courier must too
    m = scipy.sparse.csr_matrix((2, 2))
    m.indptr = np.array([0, 1, 1], dtype=np.int64)
    m.indices = np.array([5], dtype=np.int64)
    m.data = np.ones(1)
    return m
