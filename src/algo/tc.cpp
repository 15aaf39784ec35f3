// Triangle counting by forward-list intersection; see tc.hpp for the design and its cost.
#include "courier/algo/tc.hpp"

#include <algorithm>
#include <atomic>

#include "courier/sync/reduction.hpp"
#include "courier/vertex/gather.hpp"

namespace courier::algo {

using namespace courier::vertex;

namespace {

// Rows of global ids per proxy.
struct ForwardLists {
  std::vector<std::size_t> offsets;
  std::vector<vertex_t> targets;
  std::span<const vertex_t> row(local_t v) const {
    return std::span<const vertex_t>(targets).subspan(offsets[v], offsets[v + 1] - offsets[v]);
  }
};

// Steps 1 and 2: N+(v) for every proxy v, complete (all ranks' edges), sorted.
ForwardLists forward_lists(Engine& engine) {
  const dist::LocalGraph& g = engine.graph();
  const auto ranks = static_cast<std::size_t>(engine.ranks());
  std::vector<std::vector<vertex_t>> edges_out(ranks);
  for (local_t u = 0; u < g.proxies(); ++u)
    for (local_t v : g.out().neighbors(u))
      if (g.global_id(u) < g.global_id(v)) {
        auto& to = edges_out[g.plan().master_of(g.global_id(u))];
        to.push_back(g.global_id(u));
        to.push_back(g.global_id(v));
      }
  const auto edges_in = exchange_values(engine, edges_out);

  ForwardLists lists;
  std::vector<std::size_t> length(g.proxies(), 0);
  for (const auto& pairs : edges_in)
    for (std::size_t i = 0; i < pairs.size(); i += 2) ++length[*g.local_id(pairs[i])];
  // Masters' rows now; mirrors' rows arrive below, so their lengths come first.
  std::vector<std::vector<vertex_t>> rows_out(ranks);
  std::vector<std::vector<vertex_t>> master_rows(g.masters());
  for (local_t m = 0; m < g.masters(); ++m) master_rows[m].reserve(length[m]);
  for (const auto& pairs : edges_in)
    for (std::size_t i = 0; i < pairs.size(); i += 2) master_rows[*g.local_id(pairs[i])].push_back(pairs[i + 1]);
  for (auto& row : master_rows) std::sort(row.begin(), row.end());
  for (rank_t peer = 0; peer < engine.ranks(); ++peer)
    for (local_t m : g.masters_mirrored_on(peer)) {
      rows_out[peer].push_back(master_rows[m].size());
      rows_out[peer].insert(rows_out[peer].end(), master_rows[m].begin(), master_rows[m].end());
    }
  const auto rows_in = exchange_values(engine, rows_out);

  std::vector<std::vector<vertex_t>> mirror_rows(g.mirrors());
  for (rank_t peer = 0; peer < engine.ranks(); ++peer) {
    const auto& data = rows_in[peer];
    std::size_t at = 0;
    for (local_t mirror : g.mirrors_owned_by(peer)) {
      if (at >= data.size() || at + 1 + data[at] > data.size()) throw Error("tc: a truncated forward list");
      const auto n = static_cast<std::ptrdiff_t>(data[at]);
      mirror_rows[mirror - g.masters()].assign(data.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                                               data.begin() + static_cast<std::ptrdiff_t>(at) + 1 + n);
      at += 1 + static_cast<std::size_t>(n);
    }
  }
  lists.offsets.assign(g.proxies() + std::size_t{1}, 0);
  for (local_t v = 0; v < g.proxies(); ++v)
    lists.offsets[v + 1] = lists.offsets[v] + (g.is_master(v) ? master_rows[v] : mirror_rows[v - g.masters()]).size();
  lists.targets.reserve(lists.offsets.back());
  for (local_t v = 0; v < g.proxies(); ++v) {
    const auto& row = g.is_master(v) ? master_rows[v] : mirror_rows[v - g.masters()];
    lists.targets.insert(lists.targets.end(), row.begin(), row.end());
  }
  return lists;
}

void add(std::vector<std::uint64_t>& count, local_t v, std::uint64_t amount) {
  std::atomic_ref<std::uint64_t>(count[v]).fetch_add(amount, std::memory_order_relaxed);
}

}  // namespace

TriangleResult tc(Engine& engine) {
  const dist::LocalGraph& g = engine.graph();
  const ForwardLists forward = forward_lists(engine);
  Field<std::uint64_t, sync::Sum> corners(g, 0, {At::any, At::master});
  std::vector<std::vector<vertex_t>> elsewhere(engine.team().size());  // third corners with no proxy here
  std::vector<std::uint64_t> found_by(engine.team().size(), 0);

  engine.for_chunks(g.proxies(), 64, [&](std::size_t begin, std::size_t end, unsigned member) {
    for (auto a = static_cast<local_t>(begin); a < end; ++a) {
      const vertex_t ga = g.global_id(a);
      const auto fa = forward.row(a);
      for (local_t b : g.out().neighbors(a)) {
        if (g.global_id(b) < ga) continue;
        const auto fb = forward.row(b);
        std::uint64_t here = 0;
        for (std::size_t i = 0, j = 0; i < fa.size() && j < fb.size();) {
          if (fa[i] < fb[j]) {
            ++i;
          } else if (fb[j] < fa[i]) {
            ++j;
          } else {
            if (auto c = g.local_id(fa[i])) {
              add(corners.values(), *c, 1);
              corners.mark(*c);
            } else {
              elsewhere[member].push_back(fa[i]);
            }
            ++here, ++i, ++j;
          }
        }
        if (here == 0) continue;
        add(corners.values(), a, here);
        add(corners.values(), b, here);
        corners.mark(a);
        corners.mark(b);
        found_by[member] += here;
      }
    }
  });

  // Step 3: credits for corners mastered elsewhere, as (id, count) pairs to their masters.
  std::vector<vertex_t> credits;
  for (auto& part : elsewhere) credits.insert(credits.end(), part.begin(), part.end());
  std::sort(credits.begin(), credits.end());
  std::vector<std::vector<vertex_t>> credits_out(static_cast<std::size_t>(engine.ranks()));
  for (std::size_t i = 0; i < credits.size();) {
    std::size_t j = i;
    while (j < credits.size() && credits[j] == credits[i]) ++j;
    auto& to = credits_out[g.plan().master_of(credits[i])];
    to.push_back(credits[i]);
    to.push_back(j - i);
    i = j;
  }
  for (const auto& pairs : exchange_values(engine, credits_out))
    for (std::size_t i = 0; i < pairs.size(); i += 2) {
      const local_t c = *g.local_id(pairs[i]);
      corners[c] += pairs[i + 1];
      corners.mark(c);
    }
  engine.sync(corners);

  TriangleResult result;
  std::uint64_t found = 0;
  for (std::uint64_t f : found_by) found += f;
  result.total = engine.sum_all(found);
  result.per_vertex.assign(corners.values().begin(), corners.values().begin() + g.masters());
  return result;
}

}  // namespace courier::algo
