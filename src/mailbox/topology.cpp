#include "courier/mailbox/topology.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "courier/core/error.hpp"
#include "courier/core/parse_number.hpp"

namespace courier::mailbox {

namespace {

[[noreturn]] void bad_layout(std::string_view text, const std::string& why) {
  throw InputError("layout '" + std::string(text) + "': " + why +
                   "; write NODESxCORES with two positive numbers, e.g. --layout 4x2 for 4 nodes of 2 ranks");
}

}  // namespace

Layout parse_layout(std::string_view text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) bad_layout(text, "no 'x' between the node and core counts");
  unsigned nodes = 0, cores = 0;
  const ParseStatus n = parse_unsigned(text.substr(0, x), nodes);
  if (n != ParseStatus::ok) bad_layout(text, std::string("the node count ") + describe(n));
  const ParseStatus c = parse_unsigned(text.substr(x + 1), cores);
  if (c != ParseStatus::ok) bad_layout(text, std::string("the core count ") + describe(c));
  if (nodes == 0 || cores == 0) bad_layout(text, "counts must be at least 1");
  if (nodes > (1u << 20) || cores > (1u << 20)) bad_layout(text, "counts above 2^20 are not plausible");
  return Layout{static_cast<int>(nodes), static_cast<int>(cores)};
}

std::string to_string(const Layout& layout) {
  return std::to_string(layout.nodes) + "x" + std::to_string(layout.cores_per_node);
}

Topology::Topology(std::vector<int> node_of, rank_t rank) : rank_(rank), node_of_(std::move(node_of)) {
  core_of_.resize(node_of_.size());
  for (std::size_t r = 0; r < node_of_.size(); ++r) {
    const auto node = static_cast<std::size_t>(node_of_[r]);
    if (node >= members_.size()) members_.resize(node + 1);
    core_of_[r] = static_cast<int>(members_[node].size());
    members_[node].push_back(static_cast<rank_t>(r));
  }
  for (const auto& m : members_) cores_per_node_ = std::max(cores_per_node_, static_cast<int>(m.size()));
}

Topology Topology::single_node(rank_t ranks, rank_t rank) {
  return Topology(std::vector<int>(static_cast<std::size_t>(ranks), 0), rank);
}

Topology Topology::from_layout(const Layout& layout, rank_t ranks, rank_t rank) {
  const long long room = static_cast<long long>(layout.nodes) * layout.cores_per_node;
  const long long needed_nodes = (ranks + layout.cores_per_node - 1) / layout.cores_per_node;
  if (ranks > room || needed_nodes != layout.nodes) {
    throw InputError("layout " + to_string(layout) + " does not fit " + std::to_string(ranks) +
                     " ranks: it needs " + std::to_string(static_cast<long long>(layout.nodes - 1) * layout.cores_per_node + 1) +
                     " to " + std::to_string(room) + " ranks; pick NODES = ceil(ranks / CORES), e.g. " +
                     std::to_string((ranks + layout.cores_per_node - 1) / layout.cores_per_node) + "x" +
                     std::to_string(layout.cores_per_node));
  }
  std::vector<int> node_of(static_cast<std::size_t>(ranks));
  for (rank_t r = 0; r < ranks; ++r) node_of[static_cast<std::size_t>(r)] = r / layout.cores_per_node;
  return Topology(std::move(node_of), rank);
}

Topology Topology::from_nodes(const std::vector<int>& node_of_rank, rank_t rank) {
  if (node_of_rank.empty()) throw Error("mailbox::Topology: the transport reported no ranks");
  std::map<int, int> renumbered;  // reported id -> node index, in order of the lowest rank
  std::vector<int> node_of(node_of_rank.size());
  for (std::size_t r = 0; r < node_of_rank.size(); ++r) {
    const auto [it, added] = renumbered.try_emplace(node_of_rank[r], static_cast<int>(renumbered.size()));
    node_of[r] = it->second;
  }
  return Topology(std::move(node_of), rank);
}

rank_t Topology::rank_at(int node, int core) const {
  const auto& ranks = members_[static_cast<std::size_t>(node)];
  return ranks[static_cast<std::size_t>(core) % ranks.size()];
}

std::string Topology::describe() const {
  return std::to_string(nodes()) + " node" + (nodes() == 1 ? "" : "s") + " x " + std::to_string(cores_per_node_) +
         " core" + (cores_per_node_ == 1 ? "" : "s") + " (" + std::to_string(ranks()) + " ranks)";
}

}  // namespace courier::mailbox
