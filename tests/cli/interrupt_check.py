"""Ctrl-C ends `courier run` as SIGINT ends a program (killed by the signal, status 128 + 2 in a
shell), not through a library's handler that calls exit(1) with the run's threads still going."""
import signal
import subprocess
import sys
import time

courier = sys.argv[1]
run = subprocess.Popen([courier, "run", "pagerank", "--graph", "kron:12", "--ranks", "2", "--iterations",
                        "100000000", "--tolerance", "0", "-q"], restore_signals=True)
time.sleep(1.5)  # well inside the run: ten million steps take hours
run.send_signal(signal.SIGINT)
status = run.wait(timeout=60)
if status != -signal.SIGINT:
    sys.exit(f"FAIL: courier ended with status {status} on SIGINT, not killed by it ({-signal.SIGINT})")
print("PASS: SIGINT ended the run")
