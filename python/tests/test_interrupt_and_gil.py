"""The GIL is released while Courier runs, and Ctrl-C (SIGINT) during a run raises
KeyboardInterrupt from courier.run: the vertex, dsl and la engines stop at their next round, seq
and the mailbox when the run returns,
leaving the module ready for the next run."""
import signal
import threading
import time

import pytest

import courier

GRAPH = courier.Graph("kron:12")


def long_run():  # about a second on one core
    return courier.run("pagerank", GRAPH, engine="seq", tolerance=0, iterations=6000)


def test_other_python_threads_run_during_a_run():
    done = {}
    worker = threading.Thread(target=lambda: done.setdefault("result", long_run()))
    gaps, last = [], time.perf_counter()
    worker.start()
    while worker.is_alive():
        time.sleep(0.001)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    worker.join()
    gaps.append(time.perf_counter() - last)
    assert done["result"].run_seconds > 0.3
    # Holding the GIL, the run would have stopped this loop for its whole duration.
    assert max(gaps) < done["result"].run_seconds / 2, max(gaps)


def test_ctrl_c_raises_keyboard_interrupt_after_the_run():
    timer = threading.Timer(0.2, signal.raise_signal, (signal.SIGINT,))
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        long_run()
    timer.join()
    assert time.perf_counter() - started > 0.2
    assert courier.run("bfs", "path:5", engine="seq", source=0).values.tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("engine", ["vertex", "la"])
def test_ctrl_c_stops_a_run_at_its_next_round(engine):
    # Ten million pagerank iterations would take hours: only the interrupt ends this run.
    timer = threading.Timer(0.3, signal.raise_signal, (signal.SIGINT,))
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        courier.run("pagerank", GRAPH, engine=engine, ranks=2, threads=1, tolerance=0, iterations=10_000_000)
    timer.join()
    assert time.perf_counter() - started < 30
    assert courier.run("bfs", "path:5", engine=engine, ranks=2, source=0).values.tolist() == [0, 1, 2, 3, 4]
