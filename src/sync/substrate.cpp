#include "courier/sync/substrate.hpp"

namespace courier::sync {

Substrate::Substrate(const dist::LocalGraph& graph, Channel& channel, ThreadTeam& team)
    : graph_(graph), channel_(channel), team_(team) {
  for (rank_t peer = 0; peer < graph.ranks(); ++peer) {
    if (!graph.mirrors_owned_by(peer).empty()) {
      reduce_.to.push_back(peer);
      broadcast_.from.push_back(peer);
    }
    if (!graph.masters_mirrored_on(peer).empty()) {
      reduce_.from.push_back(peer);
      broadcast_.to.push_back(peer);
    }
  }
}

void Substrate::reserve(Pattern& pattern, bool reducing, std::size_t value_bytes) {
  if (pattern.reserved_value_bytes >= value_bytes) return;
  // Collective: every rank synchronises the same labels in the same order, so all get here.
  const std::size_t ranks = static_cast<std::size_t>(graph_.ranks());
  std::vector<std::size_t> max_send(ranks, 0), max_receive(ranks, 0);
  for (rank_t peer = 0; peer < graph_.ranks(); ++peer) {
    const std::size_t mirrors = graph_.mirrors_owned_by(peer).size();
    const std::size_t masters = graph_.masters_mirrored_on(peer).size();
    max_send[peer] = max_message_bytes(reducing ? mirrors : masters, value_bytes);
    max_receive[peer] = max_message_bytes(reducing ? masters : mirrors, value_bytes);
  }
  channel_.reserve(max_send, max_receive);
  pattern.reserved_value_bytes = value_bytes;
}

}  // namespace courier::sync
