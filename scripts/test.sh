#!/usr/bin/env bash
# Set-up, build, and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh "$@"
# Twice the cores: the suite waits more than it computes (launchers, processes starting, rounds
# on small graphs), and at one test per core half the CPU idles (here, 2 cores: 321 s at 2 jobs,
# 188 s at 4). The sanitized suite computes all the time and keeps one per core (scripts/sanitize.sh).
ctest --test-dir build --output-on-failure --parallel "$(( 2 * $(nproc) ))" --timeout 300
