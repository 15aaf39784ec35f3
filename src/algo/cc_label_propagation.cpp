// Connected components by label propagation: the label is a min over both edge directions, so
// it is written and read at either end and the engine syncs it both ways on every policy.
#include <stdexcept>

#include "courier/algo/cc.hpp"
#include "courier/core/error.hpp"
#include "courier/sync/reduction.hpp"

namespace courier::algo {

using namespace courier::vertex;

std::vector<vertex_t> cc_label_propagation(Engine& engine) {
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
  while (engine.next_round(frontier)) {
    spread();
    while (engine.next_level(frontier, label)) spread();  // alone, while the labels stay here
    engine.sync(label);
    frontier.take(label.updated());
  }
  return {label.values().begin(), label.values().begin() + g.masters()};
}

}  // namespace courier::algo
