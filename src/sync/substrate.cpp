#include "courier/sync/substrate.hpp"

#include <algorithm>
#include <bit>

namespace courier::sync {

namespace {

bool is_range(std::span<const local_t> list) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] != list.front() + i) return false;
  return true;
}

bool is_sorted(std::span<const local_t> list) { return std::is_sorted(list.begin(), list.end()); }

}  // namespace

Substrate::Substrate(const dist::LocalGraph& graph, Channel& channel, ThreadTeam& team)
    : graph_(graph), channel_(channel), team_(team) {
  for (rank_t peer = 0; peer < graph.ranks(); ++peer) {
    reduce_.send_is_range.push_back(is_range(reduce_send_list(peer)));
    broadcast_.send_is_range.push_back(is_range(graph.masters_mirrored_on(peer)));
    reduce_.send_is_sorted.push_back(is_sorted(reduce_send_list(peer)));
    broadcast_.send_is_sorted.push_back(is_sorted(graph.masters_mirrored_on(peer)));
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

bool Substrate::find_updated(std::span<const local_t> list, bool range, bool sorted, const Bitset& updated,
                             std::vector<std::uint32_t>& positions) {
  if (!updated.listed() || !sorted || list.empty()) return false;
  const std::size_t first = list.front();
  if (range) {  // a rank's mirrors of one owner: an entry's position is its distance from the first
    updated.for_each(first, first + list.size(),
                     [&](std::size_t v) { positions.push_back(static_cast<std::uint32_t>(v - first)); });
    return true;
  }
  // Masters a peer mirrors: each updated one among them is searched for, from the last found on.
  const std::size_t candidates = updated.count(first, std::size_t{list.back()} + 1);
  if (candidates * static_cast<std::size_t>(std::bit_width(list.size())) > list.size()) return false;
  auto from = list.begin();
  updated.for_each(first, std::size_t{list.back()} + 1, [&](std::size_t v) {
    from = std::lower_bound(from, list.end(), static_cast<local_t>(v));
    if (from != list.end() && *from == v) positions.push_back(static_cast<std::uint32_t>(from - list.begin()));
  });
  return true;
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
