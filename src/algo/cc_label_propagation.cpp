// Connected components by label propagation: the label is a min over both edge directions, so
// it is written and read at either end and the engine syncs it both ways on every policy. A round
// pushes from the changed vertices, or, when they and their edges are many (Gemini's rule), pulls:
// every vertex takes the smallest label among its changed neighbours, written once by one thread.
#include <algorithm>
#include <stdexcept>

#include "courier/algo/cc.hpp"
#include "courier/core/error.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

std::vector<vertex_t> cc_label_propagation(Engine& engine, Direction direction) {
  const dist::LocalGraph& g = engine.graph();
  if (!g.has_in_edges()) throw Error("cc: label propagation needs the graph partitioned with in-edges");
  Field<vertex_t, sync::Min> label(g, 0, kBothWays, Track::always);
  Frontier frontier(g.proxies());
  for (local_t v = 0; v < g.proxies(); ++v) {
    label[v] = g.global_id(v);
    frontier.add(v);
  }
  const auto& in = g.in();
  auto spread = [&] {
    engine.for_each_active(frontier, [&](local_t u) {
      const vertex_t mine = label.load(u);
      auto offer = [&](local_t v) {
        if (mine < label.load(v)) label.combine(v, mine);
      };
      for (local_t v : g.out().neighbors(u)) offer(v);
      for (local_t v : in.neighbors(u)) offer(v);
    });
  };
  // The same offers as spread(), taken by every vertex from its active neighbours either way
  // (Engine::pull would skip vertices without in-edges).
  auto gather = [&] {
    engine.note_pull();
    engine.for_each_vertex(g.proxies(), [&](local_t v) {
      vertex_t best = label[v];
      for (local_t u : in.neighbors(v))
        if (frontier.contains(u)) best = std::min(best, label.load(u));
      for (local_t u : g.out().neighbors(v))
        if (frontier.contains(u)) best = std::min(best, label.load(u));
      if (best < label[v]) label.set_exclusive(v, best);
    });
  };
  const std::uint64_t edges = direction == Direction::automatic ? engine.sum_all(std::uint64_t{g.edges()}) : 0;
  while (engine.next_round(frontier)) {
    if (pulls_this_round(engine, frontier, direction, edges))
      gather();
    else
      spread();
    while (engine.next_level(frontier, label)) spread();  // alone, while the labels stay here
    engine.sync(label);
    frontier.take(label.updated());
  }
  return {label.values().begin(), label.values().begin() + g.masters()};
}

}  // namespace courier::algo
