#include "courier/dsl/runtime/bfs.hpp"

#include "courier/core/bitset.hpp"
#include "courier/core/error.hpp"

namespace courier::dsl::rt {

BfsLevels::BfsLevels(Graph& g, node root) : g_(g), level_(g, inf<std::int64_t>()) {
  if (g.layout() == Layout::in) throw Error("dsl: iterateInBFS needs the masters' out-edges (layout out or both)");
  level_.assign_everywhere(root, 0);
  std::vector<local> frontier;
  if (g.owns(root)) frontier.push_back(g.proxy(root));
  Bitset next(g.proxies());
  for (std::int64_t depth = 0; g.next_round(frontier.size()); ++depth) {
    deepest_ = depth;
    level_.prepare_reduce<Min>();
    g.for_chunks(frontier.size(), 64, [&](std::size_t begin, std::size_t end, unsigned) {
      for (std::size_t i = begin; i < end; ++i) {
        const local v = frontier[i];
        for (edge e = g.out_begin(v); e < g.out_end(v); ++e)
          level_.reduce<Min>(g.out_target(e), depth + 1, [&](local m) { next.set(m); });
      }
    });
    level_.finish_reduce<Min>([&](local m) { next.set(m); });
    by_level_.push_back(std::move(frontier));
    frontier.clear();
    next.tidy();  // the next level costs its own words, not every master's
    next.for_each(0, g.masters(), [&](std::size_t m) { frontier.push_back(static_cast<local>(m)); });
    next.clear();
  }
  level_.refresh(Fetch::all);  // children are told from the levels at both ends of an edge
}

}  // namespace courier::dsl::rt
