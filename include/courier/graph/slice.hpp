#pragma once
// Reading one part of a graph: part p of P of a file's edges, or of a generator's, without reading
// or making the rest. Distributed loading gives each rank one part (dist/distributed_load.hpp).
//
// Files are cut into P byte ranges after their headers; a text line belongs to the range that
// holds its first byte, binary records are cut whole, a .csr file is cut into ranges of rows with
// about the same number of edges. A METIS line's vertex is its count of vertex lines before it:
// the parts first count theirs (metis_vertex_lines) and each takes the sum of the earlier ones. Generators make edges [m*p/P, m*(p+1)/P). Concatenating the
// parts 0..P-1 gives exactly the edges read_edge_list / generate give, in the same order.
//
// Some facts only the whole file decides: the vertex count when the format has no header (the
// largest id), whether a text file's weights are integers or reals, whether every line has the
// same columns, whether the entry count matches the header's. Each part therefore carries its
// SliceFacts; the caller gathers every part's facts and calls finish_slice, which makes the part
// final (or throws the same InputError on every part, so all ranks fail alike).
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "courier/graph/csr_rows.hpp"
#include "courier/graph/edge_list.hpp"
#include "courier/graph/load.hpp"

namespace courier::graph {

// What the parts of one input must agree on. Small, and serialisable for exchange between ranks.
struct SliceFacts {
  std::uint64_t records = 0;       // lines, entries or records of the file in this part
  vertex_t vertices = 0;           // this part's largest id + 1, or the header's count
  std::uint8_t columns = 0;        // text: 0 no data line, 2 or 3 (with weights)
  std::uint64_t columns_byte = 0;  // text: the byte where this part's first data line starts
  bool saw_real = false;           // text: a weight written as a real
  std::string deferred_error;      // text: an integer weight beyond uint32, an error unless the file has reals
  std::uint64_t vertex_lines = 0;  // METIS: vertex lines in this part, up to the last declared vertex
  // .csr: (block, hash) of the checksum's blocks that start in this part's rows; the parts'
  // blocks together make the file's checksum (finish_slice compares it with the header's).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> checksum_blocks;

  std::string serialize() const;
  static SliceFacts deserialize(std::string_view bytes);  // Error if `bytes` is not serialize()'s
};

struct EdgeSlice {
  EdgeList edges;      // this part's edges; num_vertices is final only after finish_slice
  // With ReadOptions::csr_rows, a .csr part's rows instead (`edges` then holds none, but its
  // num_vertices and weight type are set as they would be).
  std::optional<CsrRows> rows;
  SliceFacts facts;
  std::string source;  // the file or spec, for messages
  std::optional<vertex_t> declared_vertices;       // a header's vertex count
  std::optional<std::uint64_t> declared_records;   // a header's entry count
  std::uint64_t declared_line = 0;                 // where that header is (for messages)
  // A check only every part's facts together can make (a .csr file's checksum); throws InputError.
  std::function<void(std::span<const SliceFacts> all)> check_parts;
};

// Part `part` of `parts` of GRAPH (a file or a generator spec), as load_edge_list would read it
// but without its transforms (options.symmetrize / drop_self_loops / dedupe are not applied here).
// Malformed input throws InputError with FILE:LINE where the format has lines (the line number is
// counted from the start of the file; counting it reads the file up to the error).
// A binary edge list whose id width must be guessed (options.read.binary_id_bytes == 0) needs
// binary_width_vote's agreed answer in options.read.binary_id_bytes first.
// A METIS file's line is its vertex: part p needs `first_vertex`, the vertex lines of parts 0..p-1
// (the exclusive prefix sum of metis_vertex_lines over the parts), and ignores it for other inputs.
EdgeSlice read_edge_slice(const std::string& graph, const LoadOptions& options, std::uint64_t part, std::uint64_t parts,
                          std::optional<std::uint64_t> first_vertex = std::nullopt);

// METIS .graph files: the vertex lines (every line that is not a % comment; a blank line is a
// vertex without neighbours) among the lines that start in this part's byte range. nullopt for
// other inputs, which need no first vertex.
std::optional<std::uint64_t> metis_vertex_lines(const std::string& graph, const LoadOptions& options,
                                                std::uint64_t part, std::uint64_t parts);

// Binary edge lists: the id width this part votes for (4 or 8; a width the size alone decides is
// the same on every part). The parts must take the smallest vote: 8 only when every id of every
// part fits 32 bits read as 8 bytes. 0 for other inputs.
int binary_width_vote(const std::string& graph, const LoadOptions& options, std::uint64_t part, std::uint64_t parts);

// Makes `slice` final given every part's facts (`all[p]` is part p's): the vertex count, the weight
// type all parts share, the checks against headers, and a .csr file's checksum. Throws InputError, the same on every part,
// when the parts together are malformed.
void finish_slice(EdgeSlice& slice, std::span<const SliceFacts> all);

}  // namespace courier::graph
