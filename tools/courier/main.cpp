// courier: the command line of Courier, over its built-in engines and algorithms.
#include <malloc.h>

#include "commands.hpp"
#include "courier/algo/builtin.hpp"

int main(int argc, char** argv) {
  // Blocks of 4 MiB and more (a graph's arrays, a shuffle round's messages) are mapped and given
  // back when freed. glibc otherwise raises this threshold to the largest block freed so far, and
  // a loaded graph's rounds of multi-megabyte messages then stay in its heaps, counted in the
  // run's peak resident memory (issue 16: 252 -> 234 MB for kron:20 bfs on 2 ranks).
  mallopt(M_MMAP_THRESHOLD, 4 << 20);
  return courier::cli::main(argc, argv, courier::builtin_registry());
}
