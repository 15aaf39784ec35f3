"""Courier from Python: distributed graph analytics on graphs from files, generators, numpy,
scipy.sparse and networkx.

    import courier
    g = courier.Graph("kron:12", symmetrize=True)
    r = courier.run("bfs", g, engine="vertex", ranks=2, source=0, verify=True)
    print(r.values[:10], r.stats["times"], r.passed)

Runs go through Courier's harness (the C++ run API), never the command line. Ranks are threads
of this process unless the script runs under mpirun (one rank per process; rank 0 gets the
result, the others a result with speaker False).
"""
import os

# Debian's libfabric links the PSM providers, and their libinfinipath installs handlers as it loads
# that exit(1) on SIGINT, in place of Python's KeyboardInterrupt; this asks it not to.
os.environ.setdefault("IPATH_NO_BACKTRACE", "1")

# The imports follow the environment they read as the library loads.
from ._courier import Error, InputError, LoadError, algorithms, engines, launched_by_mpi  # noqa: E402
from .graph import Graph  # noqa: E402
from .run import UNREACHED, Result, run  # noqa: E402

__all__ = ["Error", "InputError", "LoadError", "Graph", "Result", "UNREACHED", "run", "algorithms", "engines",
           "launched_by_mpi"]
