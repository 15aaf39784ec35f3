#include "courier/dsl/runtime/graph.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "courier/core/error.hpp"
#include "courier/vertex/gather.hpp"

namespace courier::dsl::rt {

Graph::Graph(vertex::Engine& engine, Layout layout, Generation generation)
    : engine_(engine),
      graph_(engine.graph()),
      out_(graph_.out()),
      in_(graph_.in()),
      substrate_(graph_, engine.channel(), engine.team()),
      layout_(layout),
      generation_(generation),
      masters_(graph_.masters()),
      first_master_(graph_.masters() == 0 ? 0 : graph_.global_id(0)),
      accesses_(engine.team().size()) {
  if (layout != Layout::out && !graph_.has_in_edges())
    throw Error(fmt::format("dsl: layout {} needs the graph partitioned with in-edges", to_string(layout)));
  // Each edge once: in a master's complete row of the kind the layout keeps.
  const dist::LocalCsr& rows = layout == Layout::in ? in_ : out_;
  const edge mine = masters_ == 0 ? 0 : rows.offsets[masters_] - rows.offsets[0];
  edges_ = static_cast<std::int64_t>(engine.sum_all(std::uint64_t{mine}));
}

local Graph::proxy(node n) const {
  const auto v = graph_.local_id(n);
  if (!v)
    throw Error(fmt::format("dsl: node {} has no proxy on rank {} (a loop reached a node no edge of this rank touches)",
                            n, graph_.rank()));
  return *v;
}

namespace {

edge search(const dist::LocalCsr& rows, local row, local target, const char* what) {
  const auto begin = rows.targets.begin() + static_cast<std::ptrdiff_t>(rows.offsets[row]);
  const auto end = rows.targets.begin() + static_cast<std::ptrdiff_t>(rows.offsets[row + 1]);
  const auto at = std::lower_bound(begin, end, target);
  if (at == end || *at != target) throw Error(fmt::format("dsl: g.get_edge found no {} edge", what));
  return static_cast<edge>(at - rows.targets.begin());
}

}  // namespace

edge Graph::find_out_edge(local u, local v) const {
  return profiled(Access::edge_search, [&] { return search(out_, u, v, "out"); });
}
edge Graph::find_in_edge(local v, local u) const {
  return profiled(Access::edge_search, [&] { return search(in_, v, u, "in"); });
}

Phases Graph::profile() const {
  Phases p = phases_;
  std::array<std::uint64_t, kAccessKinds> calls{}, nanoseconds{};
  for (const AccessSlot& slot : accesses_) {
    for (std::size_t k = 0; k < kAccessKinds; ++k) {
      calls[k] += slot.calls[k];
      nanoseconds[k] += slot.nanoseconds[k];
    }
  }
  const auto seconds = [&](Access kind) {
    return static_cast<double>(nanoseconds[static_cast<std::size_t>(kind)]) * 1e-9 / members();
  };
  p.local_gets = calls[static_cast<std::size_t>(Access::local_get)];
  p.remote_gets = calls[static_cast<std::size_t>(Access::remote_get)];
  p.edge_searches = calls[static_cast<std::size_t>(Access::edge_search)];
  p.accumulates = calls[static_cast<std::size_t>(Access::accumulate)];
  p.local_read_seconds = seconds(Access::local_get);
  p.traversal_seconds = seconds(Access::edge_search);
  const double gets = seconds(Access::remote_get), accumulates = seconds(Access::accumulate);
  p.remote_read_seconds += gets;
  p.reduction_seconds += accumulates;
  // Sampled estimates may overshoot the loops they were taken in by a little.
  p.compute_seconds =
      std::max(0.0, p.compute_seconds - p.local_read_seconds - p.traversal_seconds - gets - accumulates);
  return p;
}

// A master's row of a kind the layout keeps complete is its degree. Otherwise each edge is stored
// once, as an out-edge of the rank that holds it: every rank counts its share at either end and the
// shares are summed into the masters. Then masters tell their mirrors. Each kind only where the
// program asks for it: every rank alike, a collective.
void Graph::prepare_out_degrees() {
  if (out_degrees_prepared_) return;
  out_degrees_prepared_ = true;
  const bool complete = layout_ != Layout::in;
  out_degree_.assign(proxies(), 0);
  for (local v = 0; v < (complete ? masters_ : proxies()); ++v)
    out_degree_[v] = static_cast<std::int64_t>(out_.degree(v));
  agree_degrees(out_degree_, complete);
}

void Graph::prepare_in_degrees() {
  if (in_degrees_prepared_) return;
  in_degrees_prepared_ = true;
  const bool complete = layout_ != Layout::out;
  in_degree_.assign(proxies(), 0);
  if (complete) {
    for (local v = 0; v < masters_; ++v) in_degree_[v] = static_cast<std::int64_t>(in_.degree(v));
  } else {
    for (local v = 0; v < proxies(); ++v)
      for (local w : out_.neighbors(v)) ++in_degree_[w];
  }
  agree_degrees(in_degree_, complete);
}

void Graph::agree_degrees(std::vector<std::int64_t>& degree, bool complete) {
  if (ranks() == 1) return;
  Timer timer;
  Bitset marks(proxies());
  if (!complete) {
    for (local v = masters_; v < proxies(); ++v)
      if (degree[v] != 0) marks.set_exclusive(v);
    substrate_.reduce<Sum>(degree, marks);
    marks.clear();
  }
  for (local m = 0; m < masters_; ++m) marks.set_exclusive(m);
  substrate_.broadcast(degree, marks);
  phases_.remote_read_seconds += timer.elapsed();
}

void Graph::prepare_adjacency() {
  if (adjacency_prepared_) return;  // every rank alike: a collective, also where no mirrors are
  adjacency_prepared_ = true;
  if (layout_ == Layout::in)
    throw Error("dsl: g.is_an_edge from a node of another rank needs its out-edges (layout out)");
  // Each master's row, in global ids, to every rank that mirrors it (as triangle counting does).
  Timer timer;
  const auto peers = static_cast<std::size_t>(ranks());
  std::vector<std::vector<node>> rows_out(peers);
  for (rank_t peer = 0; peer < ranks(); ++peer) {
    for (local m : graph_.masters_mirrored_on(peer)) {
      auto& to = rows_out[static_cast<std::size_t>(peer)];
      to.push_back(out_.degree(m));
      for (local w : out_.neighbors(m)) to.push_back(id(w));
      std::sort(to.end() - static_cast<std::ptrdiff_t>(out_.degree(m)), to.end());
    }
  }
  const auto rows_in = vertex::exchange_values(engine_, rows_out);
  std::vector<std::vector<node>> rows(graph_.mirrors());
  for (rank_t peer = 0; peer < ranks(); ++peer) {
    const auto& data = rows_in[static_cast<std::size_t>(peer)];
    std::size_t at = 0;
    for (local mirror : graph_.mirrors_owned_by(peer)) {
      if (at >= data.size() || at + 1 + data[at] > data.size()) throw Error("dsl: a truncated row of a mirror");
      const auto n = static_cast<std::ptrdiff_t>(data[at]);
      const auto first = data.begin() + static_cast<std::ptrdiff_t>(at) + 1;
      rows[mirror - masters_].assign(first, first + n);
      at += 1 + static_cast<std::size_t>(n);
    }
  }
  ghost_offsets_.assign(rows.size() + 1, 0);
  for (std::size_t i = 0; i < rows.size(); ++i) ghost_offsets_[i + 1] = ghost_offsets_[i] + rows[i].size();
  ghost_targets_.reserve(ghost_offsets_.back());
  for (const auto& row : rows) ghost_targets_.insert(ghost_targets_.end(), row.begin(), row.end());
  phases_.remote_read_seconds += timer.elapsed();
}

bool Graph::has_edge(local u, local w) const {
  if (u < masters_ || !adjacency_prepared_) {
    const auto row = out_.neighbors(u);
    return std::binary_search(row.begin(), row.end(), w);
  }
  const std::size_t i = u - masters_;
  const auto begin = ghost_targets_.begin() + static_cast<std::ptrdiff_t>(ghost_offsets_[i]);
  const auto end = ghost_targets_.begin() + static_cast<std::ptrdiff_t>(ghost_offsets_[i + 1]);
  return std::binary_search(begin, end, id(w));
}

bool Graph::next_round(std::uint64_t active) {
  Timer timer;
  const bool more = engine_.next_round(active);
  phases_.agreement_seconds += timer.elapsed();
  return more;
}

void Graph::check_narrowing() {
  const bool failed = overflowed_.load(std::memory_order_relaxed) != nullptr;
  if (all_reduce<Max>(std::uint64_t{failed ? 1u : 0u}) != 0) narrowing_failed();
}

void Graph::narrowing_failed() const {
  const char* where = overflowed_.load(std::memory_order_relaxed);
  throw Error(fmt::format("{}: an int value does not fit in 32 bits below INF ({}); declare the property long",
                          where != nullptr ? where : "dsl (on another rank)", inf<std::int32_t>()));
}

const Graph::Kept& Graph::find_kept(std::string_view name) const {
  const auto found = kept_.find(name);
  if (found == kept_.end()) throw Error(fmt::format("dsl: the program kept no scalar '{}'", name));
  return found->second;
}

}  // namespace courier::dsl::rt
