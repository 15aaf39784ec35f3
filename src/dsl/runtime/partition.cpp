#include "courier/dsl/runtime/partition.hpp"

#include <utility>
#include <variant>

#include "courier/dist/shuffle.hpp"

namespace courier::dsl::rt {

namespace {

// The masters' out-edges in global ids, and apart those whose destination another rank masters.
struct Edges {
  graph::EdgeList kept, copies;
};

template <class Weight>
void add(graph::EdgeList& list, graph::Edge edge, const std::vector<Weight>* weights, graph::edge_t e) {
  list.edges.push_back(edge);
  if (weights) std::get<std::vector<Weight>>(list.weights).push_back((*weights)[e]);
}

}  // namespace

dist::LocalGraph with_both_rows(const dist::LocalGraph& out_cut, const dist::Collective& collective) {
  const dist::LocalCsr& out = out_cut.out();
  const graph::WeightType weight_type =
      std::holds_alternative<std::vector<std::uint32_t>>(out.weights) ? graph::WeightType::u32
      : std::holds_alternative<std::vector<float>>(out.weights)       ? graph::WeightType::f32
                                                                      : graph::WeightType::none;
  Edges edges;
  for (graph::EdgeList* list : {&edges.kept, &edges.copies}) {
    list->num_vertices = out_cut.global_vertices();
    if (weight_type == graph::WeightType::u32) list->weights = std::vector<std::uint32_t>{};
    if (weight_type == graph::WeightType::f32) list->weights = std::vector<float>{};
  }
  const auto* u32 = std::get_if<std::vector<std::uint32_t>>(&out.weights);
  const auto* f32 = std::get_if<std::vector<float>>(&out.weights);
  for (dist::local_t u = 0; u < out_cut.proxies(); ++u) {
    for (graph::edge_t e = out.offsets[u]; e < out.offsets[u + 1]; ++e) {
      const graph::Edge edge{out_cut.global_id(u), out_cut.global_id(out.targets[e])};
      for (graph::EdgeList* list : {&edges.kept, out_cut.is_master(out.targets[e]) ? nullptr : &edges.copies}) {
        if (!list) continue;
        if (u32) add(*list, edge, u32, e);
        if (f32) add(*list, edge, f32, e);
        if (!u32 && !f32) add<std::uint32_t>(*list, edge, nullptr, e);
      }
    }
  }
  const dist::PartitionPlan& plan = out_cut.plan();
  graph::EdgeList arrived = dist::shuffle_edges(
      std::move(edges.copies), [&](graph::vertex_t, graph::vertex_t dst) { return plan.master_of(dst); }, weight_type,
      graph::edge_t{1} << 20, collective);
  graph::EdgeList& all = edges.kept;
  all.edges.insert(all.edges.end(), arrived.edges.begin(), arrived.edges.end());
  std::visit(
      [&](auto& mine) {
        using W = std::decay_t<decltype(mine)>;
        if constexpr (!std::is_same_v<W, std::monostate>) {
          if (const auto* theirs = std::get_if<W>(&arrived.weights))
            mine.insert(mine.end(), theirs->begin(), theirs->end());
        }
      },
      all.weights);
  dist::LocalGraph both(plan, out_cut.rank(), std::move(all), true);
  dist::connect_mirrors(both, collective);
  return both;
}

}  // namespace courier::dsl::rt
