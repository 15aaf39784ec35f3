#pragma once
// BfsLevels: the levels of a BFS from a root, for iterateInBFS and iterateInReverse. Built by
// rounds over the masters' out-edges (a Min of levels, one bulk reduction a level), then sent to
// mirrors, so that the children of a node (g.neighbors(v) inside either loop: the out-neighbours
// one level deeper) can be told from any of its edges. Each rank lists its masters by level.
#include <cstdint>
#include <vector>

#include "courier/dsl/runtime/graph.hpp"
#include "courier/dsl/runtime/node_property.hpp"

namespace courier::dsl::rt {

class BfsLevels {
 public:
  // Collective. Needs the masters' out-edges (Layout out or both).
  BfsLevels(Graph& g, node root);

  std::int64_t deepest() const { return deepest_; }  // -1 when the root reaches nothing, not even itself
  bool child(local v, local w) const { return level_[w] == level_[v] + 1; }
  // fn(v, member) for this rank's masters at `depth`.
  template <class Fn>
  void for_level(std::int64_t depth, Fn&& fn) {
    ++g_.phases().pulses;
    const std::vector<local>& list = by_level_[static_cast<std::size_t>(depth)];
    g_.for_chunks(list.size(), 64, [&](std::size_t begin, std::size_t end, unsigned member) {
      for (std::size_t i = begin; i < end; ++i) fn(list[i], member);
    });
  }

 private:
  Graph& g_;
  NodeProperty<std::int64_t> level_;
  std::vector<std::vector<local>> by_level_;
  std::int64_t deepest_ = -1;
};

}  // namespace courier::dsl::rt
