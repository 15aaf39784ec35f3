// Fuzz target: one graph reader (the format named by COURIER_FUZZ_EXTENSION), whole and in three
// parts as ranks read it. Malformed input must end in an InputError; anything else (a crash, a
// sanitizer report, an Error that is not about the input) is a finding. When both readings
// accept the input they must agree on the graph.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "courier/core/error.hpp"
#include "courier/graph/io.hpp"
#include "courier/graph/slice.hpp"

namespace {

using namespace courier;
using namespace courier::graph;

std::string scratch_path() {
  const char* dir = std::getenv("COURIER_FUZZ_DIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/courier-fuzz-" + std::to_string(::getpid()) +
         COURIER_FUZZ_EXTENSION;
}

// As the distributed loader reads: the binary width voted, METIS first vertices summed, every part
// read, then every part finished with all parts' facts.
// What a reading accepted: its size (the edges themselves are the readers' own tests' business).
struct Reading {
  bool accepted = false;
  std::uint64_t vertices = 0, edges = 0;
};

Reading read_in_parts(const std::string& path, std::uint64_t parts) {
  LoadOptions options;
  if (std::string_view(COURIER_FUZZ_EXTENSION) == ".bel") {
    int width = 8;
    for (std::uint64_t p = 0; p < parts; ++p) width = std::min(width, binary_width_vote(path, options, p, parts));
    options.read.binary_id_bytes = width;
  }
  std::vector<std::optional<std::uint64_t>> first(parts);
  std::uint64_t before = 0;
  for (std::uint64_t p = 0; p < parts; ++p)
    if (const auto lines = metis_vertex_lines(path, options, p, parts)) first[p] = before, before += *lines;
  std::vector<EdgeSlice> slices;
  std::vector<SliceFacts> facts;
  for (std::uint64_t p = 0; p < parts; ++p) {
    slices.push_back(read_edge_slice(path, options, p, parts, first[p]));
    facts.push_back(SliceFacts::deserialize(slices.back().facts.serialize()));
  }
  Reading joined{true, 0, 0};
  for (EdgeSlice& slice : slices) {
    finish_slice(slice, facts);
    joined.vertices = slice.edges.num_vertices;
    joined.edges += slice.edges.edges.size();
  }
  return joined;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // A graph the input declares big but legal is refused by the memory check, not allocated: the
  // fuzzer looks for crashes, not for large machines.
  ::setenv("COURIER_MEMORY_LIMIT", "268435456", 0);
  const std::string path = scratch_path();
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    if (size > 0) std::fwrite(data, 1, size, f);
    std::fclose(f);
  } else {
    std::abort();
  }
  Reading whole;
  try {
    if (std::string_view(COURIER_FUZZ_EXTENSION) == ".csr") {
      const Csr csr = read_csr(path);
      whole = {true, csr.num_vertices(), csr.num_edges()};
    } else {
      const EdgeList list = read_edge_list(path);
      whole = {true, list.num_vertices, list.edges.size()};
    }
  } catch (const InputError&) {
  }
  Reading parts;
  try {
    parts = read_in_parts(path, 3);
  } catch (const InputError&) {
  }
  ::unlink(path.c_str());
  if (whole.accepted && parts.accepted && (whole.vertices != parts.vertices || whole.edges != parts.edges)) {
    std::fprintf(stderr, "whole: %llu vertices %llu edges; in parts: %llu vertices %llu edges\n",
                 static_cast<unsigned long long>(whole.vertices), static_cast<unsigned long long>(whole.edges),
                 static_cast<unsigned long long>(parts.vertices), static_cast<unsigned long long>(parts.edges));
    std::abort();
  }
  return 0;
}
