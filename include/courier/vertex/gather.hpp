#pragma once
// Typed helpers over Engine::exchange: vectors of plain values to every rank, and a per-master
// result gathered to rank 0 by global id (so a CLI can print, verify and write it).
#include <algorithm>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

#include "courier/vertex/engine.hpp"

namespace courier::vertex {

template <class T>
sync::Bytes to_bytes(std::span<const T> values) {
  static_assert(std::is_trivially_copyable_v<T>);
  sync::Bytes bytes(values.size_bytes());
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), values.size_bytes());
  return bytes;
}

template <class T>
std::vector<T> from_bytes(const sync::Bytes& bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (bytes.size() % sizeof(T) != 0) throw Error("engine: a message that is not a whole number of values");
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Collective: outgoing[r] goes to rank r; returns what each rank sent here, by source.
template <class T>
std::vector<std::vector<T>> exchange_values(Engine& engine, const std::vector<std::vector<T>>& outgoing) {
  std::vector<sync::Bytes> bytes;
  bytes.reserve(outgoing.size());
  for (const auto& values : outgoing) bytes.push_back(to_bytes<T>(values));
  auto received = engine.exchange(std::move(bytes));
  std::vector<std::vector<T>> result;
  result.reserve(received.size());
  for (const auto& b : received) result.push_back(from_bytes<T>(b));
  return result;
}

// Collective: the labels of every rank's masters, indexed by global id, on rank 0; the other
// ranks get an empty vector. `labels` holds at least this rank's masters (local ids 0..masters-1).
template <class T>
std::vector<T> gather_masters(Engine& engine, std::span<const T> labels) {
  const auto& graph = engine.graph();
  std::vector<std::vector<T>> outgoing(static_cast<std::size_t>(engine.ranks()));
  outgoing[0].assign(labels.begin(), labels.begin() + graph.masters());
  auto received = exchange_values(engine, outgoing);
  if (engine.rank() != 0) return {};
  std::vector<T> all(graph.global_vertices());
  const auto& plan = graph.plan();
  for (rank_t r = 0; r < engine.ranks(); ++r) {
    if (received[r].size() != plan.masters_end(r) - plan.masters_begin(r))
      throw Error("engine: a rank sent a different number of masters than the plan gives it");
    std::copy(received[r].begin(), received[r].end(), all.begin() + static_cast<std::ptrdiff_t>(plan.masters_begin(r)));
  }
  return all;
}

}  // namespace courier::vertex
