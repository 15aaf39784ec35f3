#pragma once
// EdgeProperty<T>: a propEdge<T> on one rank: a value per out-edge stored here, in CSR order, and
// for the graph's own weights also per in-edge (a loop over g.nodes_to(v) reads them there).
// A master's edges are all on its rank, so an edge property never travels.
#include <algorithm>
#include <variant>
#include <vector>

#include "courier/dsl/runtime/graph.hpp"

namespace courier::dsl::rt {

template <class T>
class EdgeProperty {
 public:
  using value_type = T;

  explicit EdgeProperty(Graph& g, T initial = T{}) : out_(g.partition().out().targets.size(), initial) {}
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
    in_.clear();  // program-made edge properties live on out-edges only
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
