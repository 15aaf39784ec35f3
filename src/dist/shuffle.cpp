#include "courier/dist/shuffle.hpp"

#include <fmt/format.h>

#include <cstring>

#include "courier/core/error.hpp"

namespace courier::dist {

namespace {

// A record on the wire: source and target (8 bytes each), then the weight's 4 bytes if any.
std::size_t record_bytes(graph::WeightType type) { return 16 + (type == graph::WeightType::none ? 0 : 4); }

template <class W>
void append(Bytes& out, const graph::Edge& e, const W* weight) {
  const std::size_t at = out.size();
  out.resize(at + 16 + (weight ? 4 : 0));
  std::memcpy(out.data() + at, &e.src, 8);
  std::memcpy(out.data() + at + 8, &e.dst, 8);
  if (weight) std::memcpy(out.data() + at + 16, weight, 4);
}

template <class W>
void decode(const Bytes& in, std::size_t record, graph::EdgeList& into, std::vector<W>* weights) {
  if (in.size() % record != 0) throw Error(fmt::format("edge shuffle: a message of {} bytes is not whole records", in.size()));
  for (std::size_t at = 0; at < in.size(); at += record) {
    graph::Edge e;
    std::memcpy(&e.src, in.data() + at, 8);
    std::memcpy(&e.dst, in.data() + at + 8, 8);
    into.edges.push_back(e);
    if (weights) {
      W w;
      std::memcpy(&w, in.data() + at + 16, 4);
      weights->push_back(w);
    }
  }
}

template <class W>
graph::EdgeList shuffle_typed(graph::EdgeList mine, const std::vector<W>* weights,
                              const std::function<rank_t(vertex_t, vertex_t)>& owner, std::size_t record, edge_t chunk,
                              const Collective& collective) {
  const auto ranks = static_cast<std::size_t>(collective.ranks);
  const edge_t m = mine.edges.size();
  const std::uint64_t rounds = collective.max((m + chunk - 1) / chunk);
  graph::EdgeList out;
  out.num_vertices = mine.num_vertices;
  std::vector<W> kept;
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const edge_t first = std::min(m, round * chunk), last = std::min(m, first + chunk);
    std::vector<Bytes> outgoing(ranks);
    for (edge_t i = first; i < last; ++i) {
      const graph::Edge& e = mine.edges[i];
      append(outgoing[static_cast<std::size_t>(owner(e.src, e.dst))], e, weights ? &(*weights)[i] : nullptr);
    }
    // Unpacked at once, so at most one round's messages are alive besides the two edge lists.
    for (const Bytes& in : collective.exchange(std::move(outgoing))) decode(in, record, out, weights ? &kept : nullptr);
  }
  if (weights) out.weights = std::move(kept);
  return out;
}

}  // namespace

graph::EdgeList shuffle_edges(graph::EdgeList mine, const std::function<rank_t(vertex_t, vertex_t)>& owner,
                              graph::WeightType weight_type, edge_t chunk, const Collective& collective) {
  chunk = std::max<edge_t>(chunk, 1);
  const std::size_t record = record_bytes(weight_type);
  if (weight_type == graph::WeightType::u32) {
    auto weights = std::get<std::vector<std::uint32_t>>(std::move(mine.weights));
    return shuffle_typed(std::move(mine), &weights, owner, record, chunk, collective);
  }
  if (weight_type == graph::WeightType::f32) {
    auto weights = std::get<std::vector<float>>(std::move(mine.weights));
    return shuffle_typed(std::move(mine), &weights, owner, record, chunk, collective);
  }
  return shuffle_typed<std::uint32_t>(std::move(mine), nullptr, owner, record, chunk, collective);
}

}  // namespace courier::dist
