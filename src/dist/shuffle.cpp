#include "courier/dist/shuffle.hpp"

#include <fmt/format.h>

#include <cstring>

#include "courier/core/error.hpp"

namespace courier::dist {

namespace {

// A record on the wire: source and target (4 bytes each when every id fits, else 8), then the
// weight's 4 bytes if any.
struct Record {
  std::size_t id_bytes;
  std::size_t weight_bytes;
  std::size_t size() const { return 2 * id_bytes + weight_bytes; }
};

Record record_of(vertex_t vertices, graph::WeightType type) {
  return {vertices <= (vertex_t{1} << 32) ? std::size_t{4} : std::size_t{8},
          type == graph::WeightType::none ? std::size_t{0} : std::size_t{4}};
}

void put_id(std::byte* at, vertex_t id, std::size_t bytes) {
  if (bytes == 4) {
    if (id >> 32) throw Error(fmt::format("edge shuffle: vertex {} is beyond the graph's vertex count", id));
    const auto narrow = static_cast<std::uint32_t>(id);
    std::memcpy(at, &narrow, 4);
  } else {
    std::memcpy(at, &id, 8);
  }
}

vertex_t take_id(const std::byte* at, std::size_t bytes) {
  if (bytes == 4) {
    std::uint32_t narrow;
    std::memcpy(&narrow, at, 4);
    return narrow;
  }
  vertex_t id;
  std::memcpy(&id, at, 8);
  return id;
}

// The shuffle, whatever holds the edges: m of them, visit(first, last, f) calls f(src, dst, k) for
// edges [first, last) in order, weight(k) points to edge k's weight (W) or is null, done(first,
// last) is told when a round's edges are sent; reserve(count) and take(src, dst, weight) build what
// arrives here.
template <class W, class Visit, class Weight, class Done, class Reserve, class Take>
void shuffle_core(edge_t m, Visit&& visit, Weight&& weight, Done&& done, Reserve&& reserve, Take&& take,
                  const std::function<rank_t(vertex_t, vertex_t)>& owner, Record record, edge_t chunk,
                  const Collective& collective) {
  const auto ranks = static_cast<std::size_t>(collective.ranks);
  const std::uint64_t rounds = collective.max((m + chunk - 1) / chunk);
  // How many edges each rank will receive, so what they land in is allocated once, exactly. The
  // owners are kept a round at a time (the count pass asks for them again).
  std::vector<std::uint64_t> sending(ranks, 0);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const edge_t first = std::min(m, round * chunk), last = std::min(m, first + chunk);
    visit(first, last, [&](vertex_t s, vertex_t d, edge_t) { ++sending[static_cast<std::size_t>(owner(s, d))]; });
  }
  std::vector<Bytes> counts(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    counts[r].resize(sizeof(std::uint64_t));
    std::memcpy(counts[r].data(), &sending[r], sizeof(std::uint64_t));
  }
  std::uint64_t arriving = 0;
  for (const Bytes& b : collective.exchange(std::move(counts))) {
    if (b.size() != sizeof(std::uint64_t)) throw Error("edge shuffle: a rank sent a count of the wrong size");
    std::uint64_t c;
    std::memcpy(&c, b.data(), sizeof c);
    arriving += c;
  }
  reserve(arriving);
  std::uint64_t arrived = 0;
  std::vector<rank_t> to;
  std::vector<std::size_t> fill(ranks);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const edge_t first = std::min(m, round * chunk), last = std::min(m, first + chunk);
    // Owners first, so each message is allocated once at its size and filled in place.
    to.resize(last - first);
    std::fill(fill.begin(), fill.end(), 0);
    visit(first, last, [&](vertex_t s, vertex_t d, edge_t k) {
      to[k - first] = owner(s, d);
      fill[static_cast<std::size_t>(to[k - first])] += record.size();
    });
    std::vector<Bytes> outgoing(ranks);
    for (std::size_t r = 0; r < ranks; ++r) outgoing[r].resize(fill[r]);
    std::fill(fill.begin(), fill.end(), 0);
    visit(first, last, [&](vertex_t s, vertex_t d, edge_t k) {
      const auto r = static_cast<std::size_t>(to[k - first]);
      std::byte* at = outgoing[r].data() + fill[r];
      put_id(at, s, record.id_bytes);
      put_id(at + record.id_bytes, d, record.id_bytes);
      if (const W* w = weight(k)) std::memcpy(at + 2 * record.id_bytes, w, 4);
      fill[r] += record.size();
    });
    done(first, last);
    // Unpacked at once, so at most one round's messages are alive besides the edges on both sides.
    for (const Bytes& in : collective.exchange(std::move(outgoing))) {
      if (in.size() % record.size() != 0)
        throw Error(fmt::format("edge shuffle: a message of {} bytes is not whole records", in.size()));
      arrived += in.size() / record.size();
      if (arrived > arriving) throw Error("edge shuffle: more edges arrived than the ranks announced");
      for (std::size_t at = 0; at < in.size(); at += record.size()) {
        const std::byte* p = in.data() + at;
        W w{};
        if (record.weight_bytes) std::memcpy(&w, p + 2 * record.id_bytes, 4);
        take(take_id(p, record.id_bytes), take_id(p + record.id_bytes, record.id_bytes), w);
      }
    }
  }
  if (arrived != arriving) throw Error("edge shuffle: fewer edges arrived than the ranks announced");
}

template <class W>
graph::EdgeList shuffle_typed(graph::EdgeList mine, const std::vector<W>* weights,
                              const std::function<rank_t(vertex_t, vertex_t)>& owner, Record record, edge_t chunk,
                              const Collective& collective) {
  graph::EdgeList out;
  out.num_vertices = mine.num_vertices;
  std::vector<W> kept;
  shuffle_core<W>(
      mine.edges.size(),
      [&](edge_t first, edge_t last, auto&& f) {
        for (edge_t k = first; k < last; ++k) f(mine.edges[k].src, mine.edges[k].dst, k);
      },
      [&](edge_t k) -> const W* { return weights ? &(*weights)[k] : nullptr; }, [](edge_t, edge_t) {},
      [&](std::uint64_t count) {
        out.edges.reserve(count);
        if (weights) kept.reserve(count);
      },
      [&](vertex_t s, vertex_t d, W w) {
        out.edges.push_back({s, d});
        if (weights) kept.push_back(w);
      },
      owner, record, chunk, collective);
  if (weights) out.weights = std::move(kept);
  return out;
}

// How many edges, and runs of one source, a round of the rows sends to each rank.
struct Sizes {
  std::vector<std::uint64_t> edges, runs;
};

// plan.edge_owner for edges visited in source order: the source's master is looked up once a row.
class RowOwner {
 public:
  explicit RowOwner(const PartitionPlan& plan) : plan_(plan), columns_(plan.grid_columns()) {}
  rank_t operator()(vertex_t s, vertex_t d) {
    if (s != source_) source_ = s, source_master_ = plan_.master_of(s);
    switch (plan_.policy()) {
      case Policy::oec:
        return source_master_;
      case Policy::iec:
        return plan_.master_of(d);
      case Policy::cvc:
        return (source_master_ / columns_) * columns_ + plan_.master_of(d) % columns_;
      case Policy::hash:
        return plan_.edge_owner(s, d);
    }
    return plan_.edge_owner(s, d);
  }

 private:
  const PartitionPlan& plan_;
  rank_t columns_;
  vertex_t source_ = ~vertex_t{0};
  rank_t source_master_ = 0;
};

template <class W>
EdgeRuns shuffle_rows_typed(const graph::CsrRows& rows, vertex_t num_vertices, const W* weights,
                            const PartitionPlan& plan, bool weighted, edge_t chunk, const Collective& collective) {
  RowOwner owner(plan);
  const auto ranks = static_cast<std::size_t>(collective.ranks);
  const std::size_t record = weighted ? 8 : 4, header = 8;
  constexpr vertex_t kNoSource = ~vertex_t{0};
  constexpr std::uint32_t kLongest = ~std::uint32_t{0};
  const edge_t m = rows.edges();
  const std::uint64_t rounds = collective.max((m + chunk - 1) / chunk);
  const auto round_of = [&](std::uint64_t round) {
    const edge_t first = std::min(m, round * chunk);
    return std::pair{first, std::min(m, first + chunk)};
  };
  // Runs restart every round and every kLongest edges, here and when sending.
  std::vector<vertex_t> last(ranks);
  std::vector<std::uint32_t> length(ranks);
  const auto count_round = [&](edge_t first, edge_t last_edge, Sizes& sizes) {
    std::fill(last.begin(), last.end(), kNoSource);
    rows.visit(first, last_edge, [&](vertex_t s, vertex_t d, edge_t) {
      const auto i = static_cast<std::size_t>(owner(s, d));
      if (last[i] != s || length[i] == kLongest) last[i] = s, length[i] = 0, ++sizes.runs[i];
      ++length[i];
      ++sizes.edges[i];
    });
  };
  // Every round's sizes, counted in one pass before any is sent (16 bytes a rank a round of a
  // million edges): the totals let every rank allocate what will arrive once, exactly, and the
  // pass that packs a round sizes its messages without visiting the round twice.
  const Sizes none{std::vector<std::uint64_t>(ranks, 0), std::vector<std::uint64_t>(ranks, 0)};
  std::vector<Sizes> by_round(rounds, none);
  Sizes total = none;
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const auto [first, last_edge] = round_of(round);
    count_round(first, last_edge, by_round[round]);
    for (std::size_t r = 0; r < ranks; ++r) {
      total.edges[r] += by_round[round].edges[r];
      total.runs[r] += by_round[round].runs[r];
    }
    rows.release(first, last_edge);
  }
  // What every rank will receive, so it is allocated once, exactly.
  std::vector<Bytes> counts(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    counts[r].resize(16);
    std::memcpy(counts[r].data(), &total.edges[r], 8);
    std::memcpy(counts[r].data() + 8, &total.runs[r], 8);
  }
  std::uint64_t arriving_edges = 0, arriving_runs = 0;
  for (const Bytes& b : collective.exchange(std::move(counts))) {
    if (b.size() != 16) throw Error("edge shuffle: a rank sent counts of the wrong size");
    std::uint64_t e, r;
    std::memcpy(&e, b.data(), 8);
    std::memcpy(&r, b.data() + 8, 8);
    arriving_edges += e, arriving_runs += r;
  }
  EdgeRuns out;
  out.num_vertices = num_vertices;
  out.targets.reserve(arriving_edges);
  out.run_source.reserve(arriving_runs);
  out.run_length.reserve(arriving_runs);
  std::vector<W> kept;
  if (weighted) kept.reserve(arriving_edges);

  std::vector<std::size_t> fill(ranks), run_at(ranks);
  for (std::uint64_t round = 0; round < rounds; ++round) {
    const auto [first, last_edge] = round_of(round);
    const Sizes& sizes = by_round[round];
    std::vector<Bytes> outgoing(ranks);
    for (std::size_t r = 0; r < ranks; ++r) outgoing[r].resize(sizes.runs[r] * header + sizes.edges[r] * record);
    std::fill(fill.begin(), fill.end(), 0);
    std::fill(last.begin(), last.end(), kNoSource);
    rows.visit(first, last_edge, [&](vertex_t s, vertex_t d, edge_t k) {
      const auto r = static_cast<std::size_t>(owner(s, d));  // in the order counted, so the same runs
      std::byte* message = outgoing[r].data();
      if (last[r] != s || length[r] == kLongest) {  // a new run: its source, and its length as it grows
        last[r] = s, length[r] = 0;
        const auto source = static_cast<std::uint32_t>(s);
        std::memcpy(message + fill[r], &source, 4);
        run_at[r] = fill[r] + 4;
        fill[r] += header;
      }
      ++length[r];
      std::memcpy(message + run_at[r], &length[r], 4);
      const auto target = static_cast<std::uint32_t>(d);
      std::memcpy(message + fill[r], &target, 4);
      if (weighted) {
        if (weights) std::memcpy(message + fill[r] + 4, weights + k, 4);
      }
      fill[r] += record;
    });
    rows.release(first, last_edge);
    // Unpacked at once, so at most one round's messages are alive besides the runs on both sides.
    for (const Bytes& in : collective.exchange(std::move(outgoing))) {
      for (std::size_t at = 0; at < in.size();) {
        if (in.size() - at < header) throw Error("edge shuffle: a message ends inside a run's header");
        std::uint32_t source, count;
        std::memcpy(&source, in.data() + at, 4);
        std::memcpy(&count, in.data() + at + 4, 4);
        at += header;
        if (count == 0 || (in.size() - at) / record < count)
          throw Error(fmt::format("edge shuffle: a run of {} edges in a message with room for {}", count,
                                  (in.size() - at) / record));
        if (out.run_source.size() == arriving_runs || out.targets.size() + count > arriving_edges)
          throw Error("edge shuffle: more edges arrived than the ranks announced");
        out.run_source.push_back(source);
        out.run_length.push_back(count);
        for (std::uint32_t j = 0; j < count; ++j, at += record) {
          std::uint32_t target;
          std::memcpy(&target, in.data() + at, 4);
          out.targets.push_back(target);
          if (weighted) {
            W w;
            std::memcpy(&w, in.data() + at + 4, 4);
            kept.push_back(w);
          }
        }
      }
    }
  }
  if (out.targets.size() != arriving_edges || out.run_source.size() != arriving_runs)
    throw Error("edge shuffle: fewer edges arrived than the ranks announced");
  if (weighted) out.weights = std::move(kept);
  return out;
}

}  // namespace

graph::EdgeList shuffle_edges(graph::EdgeList mine, const std::function<rank_t(vertex_t, vertex_t)>& owner,
                              graph::WeightType weight_type, edge_t chunk, const Collective& collective) {
  // One rank keeps every edge: nothing to send, and no copy to make.
  if (collective.ranks == 1 && mine.weight_type() == weight_type) return mine;
  chunk = std::max<edge_t>(chunk, 1);
  const Record record = record_of(mine.num_vertices, weight_type);
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

namespace courier::dist {

EdgeRuns shuffle_rows(const graph::CsrRows& rows, vertex_t num_vertices, const PartitionPlan& plan,
                      graph::WeightType weight_type, edge_t chunk, const Collective& collective) {
  if (num_vertices > (vertex_t{1} << 32))
    throw Error(fmt::format("shuffle_rows: {} vertices do not fit 32-bit ids", num_vertices));
  chunk = std::max<edge_t>(chunk, 1);
  const bool weighted = weight_type != graph::WeightType::none;
  if (weight_type == graph::WeightType::u32) {
    const auto* w = std::get_if<Buffer<std::uint32_t>>(&rows.weights);
    return shuffle_rows_typed(rows, num_vertices, w ? w->data() : nullptr, plan, weighted, chunk, collective);
  }
  if (weight_type == graph::WeightType::f32) {
    const auto* w = std::get_if<Buffer<float>>(&rows.weights);
    return shuffle_rows_typed(rows, num_vertices, w ? w->data() : nullptr, plan, weighted, chunk, collective);
  }
  return shuffle_rows_typed<std::uint32_t>(rows, num_vertices, nullptr, plan, weighted, chunk, collective);
}

}  // namespace courier::dist
