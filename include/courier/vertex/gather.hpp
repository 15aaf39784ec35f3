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
// Each rank's labels are copied once into the channel's buffer and once from it into place: a
// large result's every copy is mostly page faults.
template <class T>
std::vector<T> gather_masters(Engine& engine, std::span<const T> labels) {
  static_assert(std::is_trivially_copyable_v<T>);
  const auto& graph = engine.graph();
  const auto& plan = graph.plan();
  const bool root = engine.rank() == 0;
  const std::span<const T> mine = labels.first(graph.masters());
  std::vector<std::span<const std::byte>> outgoing(static_cast<std::size_t>(engine.ranks()));
  if (!root) outgoing[0] = std::as_bytes(mine);
  std::vector<T> all(root ? graph.global_vertices() : 0);
  const auto place = [&](rank_t r, std::span<const std::byte> part) {
    if (part.size() != (plan.masters_end(r) - plan.masters_begin(r)) * sizeof(T))
      throw Error("engine: a rank sent a different number of masters than the plan gives it");
    if (!part.empty()) std::memcpy(all.data() + plan.masters_begin(r), part.data(), part.size());
  };
  engine.exchange(outgoing, [&](rank_t source, std::span<const std::byte> part) {
    if (root) place(source, part);
  });
  if (root) place(0, std::as_bytes(mine));
  return all;
}

// The same, given the labels to keep: on one rank that masters every vertex in global order they
// are the answer as they are, with no copy (a copy of a large result is mostly page faults).
template <class T>
std::vector<T> gather_masters(Engine& engine, std::vector<T>&& labels) {
  const auto& graph = engine.graph();
  if (engine.ranks() == 1 && graph.masters() == graph.global_vertices() && graph.plan().masters_begin(0) == 0) {
    labels.resize(graph.masters());
    return std::move(labels);
  }
  return gather_masters<T>(engine, std::span<const T>(labels));
}

}  // namespace courier::vertex
