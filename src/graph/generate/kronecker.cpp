// Graph500 Kronecker (R-MAT) edges: each of the `scale` bit positions of (src, dst) picks one
// quadrant of the adjacency matrix with probabilities A, B, C, D, then the ids go through
// VertexScramble. Graph500's A, B, C unless the options choose others.
#include <cstdint>

#include "courier/core/random.hpp"
#include "courier/graph/vertex_scramble.hpp"
#include "edge_generators.hpp"

namespace courier::graph::detail {

namespace {

// Quadrant thresholds on a 32-bit uniform number: [0, A) top-left, [A, A+B) top-right,
// [A+B, A+B+C) bottom-left, the rest (D) bottom-right.
struct Thresholds {
  std::uint64_t a, ab, abc;
  explicit Thresholds(const GeneratorOptions& o)
      : a(static_cast<std::uint64_t>(o.a * 4294967296.0)),
        ab(static_cast<std::uint64_t>((o.a + o.b) * 4294967296.0)),
        abc(static_cast<std::uint64_t>((o.a + o.b + o.c) * 4294967296.0)) {}

  // One level: the row bit is set in the bottom half (C, D), the column bit in B and D.
  void choose_quadrant(std::uint64_t u, vertex_t& row_bit, vertex_t& column_bit) const {
    const vertex_t past_a = u >= a, past_b = u >= ab, past_c = u >= abc;
    row_bit = past_b;
    column_bit = past_a ^ past_b ^ past_c;
  }
};

}  // namespace

void kronecker_edges(const GeneratorOptions& options, edge_t first, std::span<Edge> out) {
  const int scale = options.scale;
  const std::uint64_t key = stream_key(options.seed, kKroneckerStream);
  const std::uint64_t words_per_edge = (scale + 1) / 2;  // two 32-bit levels per 64-bit number
  const VertexScramble scramble(scale, options.seed);
  const Thresholds thresholds(options);
  for (std::size_t k = 0; k < out.size(); ++k) {
    const std::uint64_t counter = (first + k) * words_per_edge;
    vertex_t src = 0, dst = 0;
    for (int level = 0; level < scale; level += 2) {
      const std::uint64_t word = counter_random(key, counter + level / 2);
      vertex_t row, column;
      thresholds.choose_quadrant(word & 0xffffffffu, row, column);
      src = (src << 1) | row;
      dst = (dst << 1) | column;
      if (level + 1 < scale) {
        thresholds.choose_quadrant(word >> 32, row, column);
        src = (src << 1) | row;
        dst = (dst << 1) | column;
      }
    }
    out[k] = {scramble(src), scramble(dst)};
  }
}

}  // namespace courier::graph::detail
