#!/usr/bin/env bash
# Installs the built Courier into a fresh prefix, then configures, builds and runs a downstream
# project that uses find_package(Courier): its executable is EXECUTABLE (default: downstream).
# With PKG_CONFIG_BUILD=yes, also builds the project's main.cpp with `pkg-config courier` alone,
# as a Makefile user would, and runs it.
set -euo pipefail
build_dir=$1 source_dir=$2 work=$3 executable=${4:-downstream} pkg_config_build=${5:-no}
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/$executable"
test -x "$work/prefix/bin/courier"
"$work/prefix/bin/courier" --version
if [ "$pkg_config_build" = yes ]; then
  pc_dir=$(dirname "$(find "$work/prefix" -name courier.pc)")
  flags=$(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs courier)
  # shellcheck disable=SC2086 # the flags are words
  c++ -O1 "$source_dir/main.cpp" -o "$work/pkg_config_$executable" $flags
  echo -n "pkg-config: "
  "$work/pkg_config_$executable"
fi
