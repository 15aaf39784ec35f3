#pragma once
// The per-edge generators behind generate(): each fills out[k] with edge first + k, a pure function
// of (options.seed, first + k), so chunks can be filled by any thread in any order.
#include <cstdint>
#include <span>

#include "courier/graph/edge_list.hpp"
#include "courier/graph/generate.hpp"

namespace courier::graph::detail {

// Streams of the counter-based generator (courier/core/random.hpp), one per use.
inline constexpr std::uint64_t kKroneckerStream = 1;
inline constexpr std::uint64_t kUniformStream = 2;
inline constexpr std::uint64_t kWeightStream = 3;

void kronecker_edges(const GeneratorOptions& options, edge_t first, std::span<Edge> out);
void uniform_edges(const GeneratorOptions& options, edge_t first, std::span<Edge> out);
void random_weights(const GeneratorOptions& options, edge_t first, std::span<std::uint32_t> out);

// Paths and grids (lattice.cpp): out[k] is arc first + k; both arcs of an edge weigh the same.
std::uint64_t lattice_rows(const GeneratorOptions& options);        // 1 for a path
std::uint64_t lattice_edge_count(const GeneratorOptions& options);  // undirected edges
void lattice_edges(const GeneratorOptions& options, edge_t first, std::span<Edge> out);
void lattice_weights(const GeneratorOptions& options, edge_t first, std::span<std::uint32_t> out);

}  // namespace courier::graph::detail
