#include "courier/sync/substrate.hpp"

#include <algorithm>

namespace courier::sync {

namespace {

bool is_range(std::span<const local_t> list) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] != list.front() + i) return false;
  return true;
}

}  // namespace

Substrate::Substrate(const dist::LocalGraph& graph, Channel& channel, ThreadTeam& team)
    : graph_(graph), channel_(channel), team_(team) {
  for (rank_t peer = 0; peer < graph.ranks(); ++peer) {
    reduce_.send_is_range.push_back(is_range(reduce_send_list(peer)));
    broadcast_.send_is_range.push_back(is_range(graph.masters_mirrored_on(peer)));
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
  // A streaming channel's messages are never longer than its limit.
  const std::size_t limit = channel_.message_limit();
  auto largest = [&](std::size_t entries) {
    const std::size_t whole = max_message_bytes(entries, value_bytes);
    return limit == 0 ? whole : std::min(limit, sizeof(StreamHeader) + whole);
  };
  for (rank_t peer = 0; peer < graph_.ranks(); ++peer) {
    const std::size_t mirrors = graph_.mirrors_owned_by(peer).size();
    const std::size_t masters = graph_.masters_mirrored_on(peer).size();
    max_send[peer] = largest(reducing ? mirrors : masters);
    max_receive[peer] = largest(reducing ? masters : mirrors);
  }
  channel_.reserve(max_send, max_receive);
  pattern.reserved_value_bytes = value_bytes;
}

}  // namespace courier::sync
