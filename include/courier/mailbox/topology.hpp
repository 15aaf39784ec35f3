#pragma once
// Topology: which node every rank lives on, and its core offset there (paper 001, section III:
// core (n, c) is offset c of node n). Ranks of one node are numbered in rank order. Nodes may hold
// different numbers of ranks (the last one of a simulated layout, or an uneven launcher); routing
// then takes core offsets modulo the node's size, so every route still exists.
//
//   Topology::from_layout(parse_layout("4x2"), 8, rank)  // simulated: ranks 0-1 node 0, 2-3 node 1...
//   Topology::from_nodes(device.rank_nodes(), rank)       // what the transport reports
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "courier/core/rank.hpp"

namespace courier::mailbox {

// A simulated layout: `nodes` nodes of `cores_per_node` ranks each, filled in rank order.
struct Layout {
  int nodes = 1;
  int cores_per_node = 1;
};

// "NODESxCORES", e.g. "4x2"; throws InputError saying what is wrong and how to write it.
Layout parse_layout(std::string_view text);
std::string to_string(const Layout& layout);

class Topology {
 public:
  // Every rank on one node.
  static Topology single_node(rank_t ranks, rank_t rank);
  // Ranks 0..C-1 on node 0, C..2C-1 on node 1, ...; the last node may be partly filled. Throws
  // InputError unless the layout has room for `ranks` and leaves no node empty.
  static Topology from_layout(const Layout& layout, rank_t ranks, rank_t rank);
  // node_of_rank[r] is rank r's node id (any integers; nodes are renumbered by their lowest rank).
  static Topology from_nodes(const std::vector<int>& node_of_rank, rank_t rank);

  rank_t rank() const { return rank_; }
  rank_t ranks() const { return static_cast<rank_t>(node_of_.size()); }
  int nodes() const { return static_cast<int>(members_.size()); }
  int cores_per_node() const { return cores_per_node_; }  // the largest node's rank count (C)
  int node() const { return node_of(rank_); }
  int core() const { return core_of(rank_); }

  int node_of(rank_t r) const { return node_of_[static_cast<std::size_t>(r)]; }
  int core_of(rank_t r) const { return core_of_[static_cast<std::size_t>(r)]; }
  int cores_on(int node) const { return static_cast<int>(members_[static_cast<std::size_t>(node)].size()); }
  // The rank at core offset `core` of `node`, the offset taken modulo the node's size.
  rank_t rank_at(int node, int core) const;
  const std::vector<rank_t>& ranks_on(int node) const { return members_[static_cast<std::size_t>(node)]; }
  bool same_node(rank_t a, rank_t b) const { return node_of(a) == node_of(b); }

  std::string describe() const;  // e.g. "2 nodes x 4 cores (7 ranks)"

 private:
  Topology(std::vector<int> node_of, rank_t rank);
  rank_t rank_ = 0;
  int cores_per_node_ = 1;
  std::vector<int> node_of_;
  std::vector<int> core_of_;
  std::vector<std::vector<rank_t>> members_;
};

}  // namespace courier::mailbox
