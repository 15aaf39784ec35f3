#pragma once
// Synthetic graphs, deterministic for a given seed whatever the thread count. Edge i is a pure
// function of (seed, i), so any rank can generate any slice of the edges on its own.
#include <cstdint>
#include <string_view>

#include "courier/graph/edge_list.hpp"

namespace courier::graph {

enum class Generator { kronecker, uniform };

struct GeneratorOptions {
  Generator kind = Generator::kronecker;
  int scale = 10;          // 2^scale vertices
  int edge_factor = 16;    // edge_factor * 2^scale edges
  std::uint64_t seed = 1;
  bool weights = false;    // uniform random uint32 weights in [1, 255]
};

// Graph500 Kronecker (A=0.57, B=0.19, C=0.19, ids scrambled) or uniform random.
EdgeList generate(const GeneratorOptions& options);
// Only edges [first, last) of the same graph.
EdgeList generate_range(const GeneratorOptions& options, edge_t first, edge_t last);

// "kron:SCALE" or "urand:SCALE"; false if `spec` is not a generator spec at all, throws
// InputError if it is one but malformed ("kron:x").
bool parse_generator_spec(std::string_view spec, GeneratorOptions& options);

}  // namespace courier::graph
