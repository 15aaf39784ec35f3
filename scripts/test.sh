#!/usr/bin/env bash
# Set-up, build, and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh "$@"
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 300
