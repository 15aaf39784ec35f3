#pragma once
// Round-robin ownership, as paper 001's Algorithm 1 assigns vertices: vertex v belongs to rank
// v mod P, where it is local vertex v / P. The mailbox applications keep their per-vertex arrays
// (degrees, labels, vector entries) in this layout.
#include <cstddef>

#include "courier/graph/types.hpp"

namespace courier::mailbox {

class RoundRobin {
 public:
  RoundRobin(int ranks, int rank, graph::vertex_t vertices)
      : ranks_(static_cast<graph::vertex_t>(ranks)), rank_(static_cast<graph::vertex_t>(rank)), vertices_(vertices) {}

  int owner(graph::vertex_t v) const { return static_cast<int>(v % ranks_); }
  std::size_t local(graph::vertex_t v) const { return static_cast<std::size_t>(v / ranks_); }
  graph::vertex_t global(std::size_t local) const { return static_cast<graph::vertex_t>(local) * ranks_ + rank_; }
  bool mine(graph::vertex_t v) const { return v % ranks_ == rank_; }
  // How many vertices this rank owns.
  std::size_t owned() const {
    return static_cast<std::size_t>(vertices_ / ranks_ + (rank_ < vertices_ % ranks_ ? 1 : 0));
  }
  graph::vertex_t vertices() const { return vertices_; }

 private:
  graph::vertex_t ranks_, rank_, vertices_;
};

}  // namespace courier::mailbox
