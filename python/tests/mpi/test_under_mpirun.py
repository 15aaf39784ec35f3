"""Under mpirun -np 2: the same calls run one rank per process. Rank 0 gets the values, the other
rank a Result with speaker False; a bad input raises the same courier.LoadError on every rank;
engines that run on one rank, and comm='local', run in each process alone."""
import contextlib
import os

import networkx as nx
import numpy as np
import pytest

import courier

if os.environ.get("COURIER_REQUIRE_MPIRUN") and not courier.launched_by_mpi():
    raise RuntimeError("COURIER_REQUIRE_MPIRUN is set but this process was not started by mpirun")
pytestmark = pytest.mark.skipif(not courier.launched_by_mpi(), reason="runs under mpirun (CTest: python.mpirun.np2)")

RANK = int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0")))


def test_rank_zero_speaks_for_an_in_memory_graph():
    g = nx.karate_club_graph()  # every process holds the same graph; each rank reads its share
    result = courier.run("bfs", g, engine="vertex", threads=1, source=0, verify=True)
    assert result.ranks == 2 and result.rank == RANK
    if RANK == 0:
        want = nx.single_source_shortest_path_length(g, 0)
        assert result.speaker and result.passed
        assert result.values.tolist() == [want[v] for v in range(g.number_of_nodes())]
    else:
        assert not result.speaker and result.values is None


@pytest.mark.parametrize("engine", ["vertex", "mailbox", "la", "dsl"])
def test_every_distributed_engine_on_a_generated_graph(engine):
    result = courier.run("cc", "kron:8", engine=engine, threads=1, verify=True)
    assert result.speaker == (RANK == 0)
    if result.speaker:
        assert result.passed, result.verification
        assert result.stats["options"]["ranks"] == 2


def test_a_bad_file_fails_alike_on_every_rank():
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"courier_mpi_bad_{os.getppid()}.el")
    mine = f"{path}.{RANK}"
    with open(mine, "w") as f:
        f.write("0 1\n1 2\nx y\n")
    os.replace(mine, path)  # both ranks write the same bytes: either copy will do
    with pytest.raises(courier.LoadError, match=r"\.el:3"):
        courier.run("bfs", path, engine="vertex", threads=1)
    with contextlib.suppress(FileNotFoundError):  # every rank has read it: the failure was agreed
        os.remove(path)


def test_one_rank_engines_and_local_ranks_run_in_each_process():
    assert courier.run("degree", "path:6", engine="seq").values.tolist() == [1, 2, 2, 2, 2, 1]
    local = courier.run("bfs", "path:6", engine="vertex", ranks=2, threads=1, comm="local", source=0)
    assert local.speaker and local.values.tolist() == [0, 1, 2, 3, 4, 5]
    over_mpi = courier.run("bfs", "path:6", engine="vertex", threads=1, source=0)
    if RANK == 0:
        np.testing.assert_array_equal(over_mpi.values, local.values)
