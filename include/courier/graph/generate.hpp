#pragma once
// Synthetic graphs, deterministic for a given seed whatever the thread count. Edge i is a pure
// function of (seed, i), so any rank can generate any slice of the edges on its own. Kronecker and
// uniform random graphs have a small diameter; paths and 2D grids (lattices) a large one, as road
// networks do, so they take as many rounds as they have levels.
#include <cstdint>
#include <string>
#include <string_view>

#include "courier/graph/edge_list.hpp"

namespace courier::graph {

enum class Generator { kronecker, uniform, path, grid };

inline constexpr int kMinGeneratorScale = 1;
inline constexpr int kMaxGeneratorScale = 40;
inline constexpr int kMaxEdgeFactor = 1 << 16;
// A lattice has at most as many vertices as the largest Kronecker graph.
inline constexpr std::uint64_t kMaxLatticeVertices = std::uint64_t{1} << kMaxGeneratorScale;

inline bool rmat_probabilities_valid(double a, double b, double c) {
  return a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1;  // false for NaN too
}

struct GeneratorOptions {
  Generator kind = Generator::kronecker;
  int scale = 10;                       // kronecker, uniform: 2^scale vertices, 1..40
  int edge_factor = 16;                 // kronecker, uniform: edge_factor * 2^scale edges
  std::uint64_t rows = 1, columns = 2;  // path (one row), grid: rows x columns vertices
  // kronecker: the quadrant probabilities of each level (R-MAT's A, B, C; D = 1 - A - B - C).
  // Graph500's by default; "rmat:SCALE:a=A:b=B:c=C" chooses others.
  double a = 0.57, b = 0.19, c = 0.19;
  std::uint64_t seed = 1;
  bool weights = false;    // uniform random uint32 weights in [1, 255]
  unsigned threads = 0;    // 0: std::thread::hardware_concurrency(); never changes the result
};

// Graph500 Kronecker (A=0.57, B=0.19, C=0.19, D=0.05 unless the options choose others, i.e. R-MAT;
// each edge drawn bit by bit, ids scrambled by VertexScramble) or uniform random endpoints. Self loops and duplicate
// edges are kept, as Graph500 does; the edges are directed as drawn (symmetrize for an undirected graph). A path or
// grid is undirected and simple: vertex r * columns + c joins its right and lower neighbours, each edge given in both
// directions (u, v) then (v, u), row by row (a row's edges along it, then those down to the next row); with weights
// both directions weigh the same. Throws InputError for a scale outside 1..40, an edge factor outside 1..65536,
// probabilities A, B, C outside [0, 1] or summing beyond 1, or a lattice without vertices or with more than 2^40.
EdgeList generate(const GeneratorOptions& options);
// Only edges [first, last) of the same graph (num_vertices is the whole graph's).
EdgeList generate_range(const GeneratorOptions& options, edge_t first, edge_t last);
// edge_factor * 2^scale; for a lattice, twice its undirected edges.
edge_t generated_edge_count(const GeneratorOptions& options);
// 2^scale; for a lattice, rows * columns.
vertex_t generated_vertex_count(const GeneratorOptions& options);

// A spec is exactly "kron:SCALE", "rmat:SCALE" or "urand:SCALE", optionally followed by ":ef=E"
// (edge factor) and/or ":seed=S", and for rmat ":a=A", ":b=B", ":c=C" (quadrant probabilities; rmat
// is Kronecker, rmat:S the same graph as kron:S), or "path:N" (N vertices) or "grid:RxC" (R rows of
// C), optionally followed by ":seed=S" (the weights'); it sets only the fields it names. Returns
// false if `spec` does not start with "kron:", "rmat:", "urand:", "path:" or "grid:" (it is a file
// name then; a file called like a
// spec is read as ./kron:16.el), and throws InputError, showing the right form, if it does but is
// malformed ("kron:x").
bool parse_generator_spec(std::string_view spec, GeneratorOptions& options);
// "kron:16", "path:1000", "grid:30x40" (with ":ef=E" / ":seed=S" when they differ from the defaults).
std::string generator_spec(const GeneratorOptions& options);

}  // namespace courier::graph
