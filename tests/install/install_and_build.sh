#!/usr/bin/env bash
# Installs the built Courier into a fresh prefix, then configures, builds and runs a downstream
# project that uses find_package(Courier): its executable is EXECUTABLE (default: downstream).
set -euo pipefail
build_dir=$1 source_dir=$2 work=$3 executable=${4:-downstream}
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/$executable"
test -x "$work/prefix/bin/courier"
"$work/prefix/bin/courier" --version
