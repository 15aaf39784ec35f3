"""Courier's errors reach Python as courier.Error subclasses carrying Courier's messages."""
import pytest

import courier


def test_the_exception_hierarchy():
    assert issubclass(courier.Error, Exception)
    assert issubclass(courier.InputError, courier.Error) and issubclass(courier.InputError, ValueError)
    assert issubclass(courier.LoadError, courier.InputError)


def test_a_missing_file():
    with pytest.raises(courier.InputError, match="missing.el: no such file"):
        courier.run("bfs", "missing.el")


def test_an_unknown_algorithm_and_engine():
    with pytest.raises(courier.InputError, match="no algorithm 'bfz': choose one of degree, bfs"):
        courier.run("bfz", "kron:6")
    with pytest.raises(ValueError, match="engine"):
        courier.run("bfs", "kron:6", engine="gpu")


def test_bad_options():
    with pytest.raises(courier.InputError, match="--policy xx: choose one of oec, iec, cvc, hash"):
        courier.run("bfs", "kron:6", policy="xx")
    with pytest.raises(courier.InputError, match="--damping is for pagerank"):
        courier.run("bfs", "kron:6", damping=0.5)
    with pytest.raises(courier.InputError, match="--colour: no engine or algorithm takes this option"):
        courier.run("bfs", "kron:6", colour="red")
    with pytest.raises(courier.InputError, match="the mailbox engine does not run bfs"):
        courier.run("bfs", "kron:6", engine="mailbox")
    with pytest.raises(courier.InputError, match="comm='tcp'"):
        courier.run("bfs", "kron:6", comm="tcp")


def test_a_malformed_file_names_the_line(tmp_path):
    path = tmp_path / "bad.el"
    path.write_text("0 1\n1 2\nx y\n")
    with pytest.raises(courier.InputError, match=r"bad.el:3"):
        courier.run("bfs", str(path), engine="seq")
    # Read in parts by two ranks: every rank refuses it alike, rank 0 speaking.
    with pytest.raises(courier.LoadError, match=r"bad.el:3"):
        courier.run("bfs", str(path), engine="vertex", ranks=2)
    with pytest.raises(courier.InputError, match=r"bad.el:3"):
        courier.Graph(path).info()


def test_a_source_beyond_the_graph():
    with pytest.raises(courier.InputError, match="source"):
        courier.run("bfs", "path:10", engine="vertex", ranks=2, source=99)
