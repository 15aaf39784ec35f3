#pragma once
// Direction: which way a bottom-up step (courier/dsl/analysis.hpp, "Bottom-up steps") runs each
// round, by Beamer's rule as GAP's bfs applies it: push while the frontier's out-edges are few
// against the edges left unexplored (over kAlpha) and the nodes, then pull until the frontier
// holds fewer than the nodes over kBeta and is shrinking. Every rank decides alike (collective).
#include <algorithm>
#include <cstdint>

#include "courier/core/error.hpp"
#include "courier/dsl/runtime/graph.hpp"
#include "courier/dsl/runtime/node_flags.hpp"

namespace courier::dsl::rt {

class Direction {
 public:
  static constexpr double kAlpha = 15;  // a pulled edge's cost against a pushed one's
  static constexpr double kBeta = 18;   // the frontier, as a share of the nodes, below which pushing pays again

  explicit Direction(Graph& g) : g_(g), unexplored_(static_cast<double>(g.num_edges())) {
    if (!g.partition().has_in_edges())
      throw Error("dsl: a bottom-up step reads each rank's in-edges, and the partition has none");
  }

  // Whether this round, whose frontier is `flags`, pulls (collective).
  bool pulls(NodeFlags& flags) {
    const double nodes = static_cast<double>(g_.num_nodes());
    const double active = static_cast<double>(g_.all_reduce<Sum>(flags.count()));
    if (!pulling_) {
      std::uint64_t mine = 0;
      flags.frontier().bits().for_each(0, g_.masters(), [&](std::size_t m) {
        mine += static_cast<std::uint64_t>(g_.out_end(static_cast<local>(m)) - g_.out_begin(static_cast<local>(m)));
      });
      const double frontier_edges = static_cast<double>(g_.all_reduce<Sum>(mine));
      // A pull visits every node: the frontier must outweigh them too, so a tiny one never pulls.
      pulling_ = frontier_edges > std::max(unexplored_, nodes) / kAlpha;
      unexplored_ -= frontier_edges;
    } else {
      pulling_ = !(active < nodes / kBeta && active < last_active_);
    }
    last_active_ = active;
    if (pulling_) ++g_.phases().bottom_up;
    return pulling_;
  }

 private:
  Graph& g_;
  double unexplored_;
  double last_active_ = 0;
  bool pulling_ = false;
};

}  // namespace courier::dsl::rt
