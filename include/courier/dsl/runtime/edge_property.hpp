#pragma once
// EdgeProperty<T>: a propEdge<T> on one rank: a value per out-edge stored here, in CSR order, and
// per in-edge too where the partition holds in-edges (a loop over g.nodes_to(v) reads them there).
// A master's edges are all on its rank, so an edge property never travels. An in-edge's value is
// the graph's weight or what attachEdgeProperty (fill) set: a program that sets edges one by one
// (set_out, on out-edges) may not read them over in-edges, which codegen refuses.
#include <algorithm>
#include <variant>
#include <vector>

#include "courier/dsl/runtime/graph.hpp"

namespace courier::dsl::rt {

template <class T>
class EdgeProperty {
 public:
  using value_type = T;

  explicit EdgeProperty(Graph& g, T initial = T{})
      : out_(g.partition().out().targets.size(), initial),
        in_(g.partition().has_in_edges() ? g.partition().in().targets.size() : 0, initial) {}
  EdgeProperty(const EdgeProperty&) = delete;
  EdgeProperty& operator=(const EdgeProperty&) = delete;

  // The graph's weights as T (Error when the graph has none).
  static EdgeProperty weights(Graph& g) {
    EdgeProperty p(g);
    p.out_ = converted(g.partition().out().weights);
    if (g.partition().has_in_edges()) p.in_ = converted(g.partition().in().weights);
    return p;
  }
  EdgeProperty(EdgeProperty&&) = default;

  T out(edge e) const { return out_[e]; }
  T in(edge e) const { return in_[e]; }
  void set_out(edge e, T x) { out_[e] = x; }
  void fill(T x) {
    std::fill(out_.begin(), out_.end(), x);
    std::fill(in_.begin(), in_.end(), x);
  }

 private:
  static std::vector<T> converted(const graph::EdgeWeights& weights) {
    return std::visit(
        [](const auto& w) -> std::vector<T> {
          if constexpr (std::is_same_v<std::decay_t<decltype(w)>, std::monostate>) {
            throw Error("a program reads edge weights, but the graph has none (generate with --weights)");
          } else {
            return std::vector<T>(w.begin(), w.end());
          }
        },
        weights);
  }

  std::vector<T> out_;
  std::vector<T> in_;
};

}  // namespace courier::dsl::rt
