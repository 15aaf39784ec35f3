#pragma once
// Reading a graph in parts as ranks do (graph/slice.hpp), for the tests of every format's parts.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "courier/graph/io.hpp"
#include "courier/graph/load.hpp"
#include "courier/graph/slice.hpp"

namespace courier::graph::test {

// METIS: each part's first vertex, the vertex lines of the parts before it (as ranks scan them).
inline std::vector<std::optional<std::uint64_t>> first_vertices(const std::string& graph, std::uint64_t parts,
                                                                const LoadOptions& options = {}) {
  std::vector<std::optional<std::uint64_t>> first(parts);
  std::uint64_t before = 0;
  for (std::uint64_t p = 0; p < parts; ++p) {
    const auto lines = metis_vertex_lines(graph, options, p, parts);
    if (!lines) continue;
    first[p] = before;
    before += *lines;
  }
  return first;
}

// Every part read and finished as ranks would, then joined in part order.
inline EdgeList read_in_parts(const std::string& graph, std::uint64_t parts, LoadOptions options = {}) {
  if (const auto sep = graph.rfind('.');
      sep != std::string::npos && graph.substr(sep) == ".bel" && options.read.binary_id_bytes == 0) {
    int width = 8;
    for (std::uint64_t p = 0; p < parts; ++p) width = std::min(width, binary_width_vote(graph, options, p, parts));
    options.read.binary_id_bytes = width;
  }
  const std::vector<std::optional<std::uint64_t>> first = first_vertices(graph, parts, options);
  std::vector<EdgeSlice> slices;
  std::vector<SliceFacts> facts;
  for (std::uint64_t p = 0; p < parts; ++p) {
    slices.push_back(read_edge_slice(graph, options, p, parts, first[p]));
    facts.push_back(SliceFacts::deserialize(slices.back().facts.serialize()));  // as it travels
  }
  EdgeList joined;
  for (EdgeSlice& slice : slices) {
    finish_slice(slice, facts);
    joined.num_vertices = slice.edges.num_vertices;
    joined.edges.insert(joined.edges.end(), slice.edges.edges.begin(), slice.edges.edges.end());
    std::visit(
        [&](const auto& w) {
          using W = std::decay_t<decltype(w)>;
          if constexpr (!std::is_same_v<W, std::monostate>) {
            if (!std::holds_alternative<W>(joined.weights)) joined.weights = W();
            auto& all = std::get<W>(joined.weights);
            all.insert(all.end(), w.begin(), w.end());
          }
        },
        slice.edges.weights);
  }
  return joined;
}

inline void expect_parts_join_to_whole(const std::string& graph, LoadOptions options = {},
                                       std::uint64_t max_parts = 9) {
  const EdgeList whole = load_edge_list(graph, options);
  for (std::uint64_t parts = 1; parts <= max_parts; ++parts) {
    SCOPED_TRACE(::testing::Message() << graph << " in " << parts << " parts");
    const EdgeList joined = read_in_parts(graph, parts, options);
    EXPECT_EQ(joined.num_vertices, whole.num_vertices);
    EXPECT_EQ(joined.edges, whole.edges);
    EXPECT_EQ(joined.weights, whole.weights);
  }
}

}  // namespace courier::graph::test
