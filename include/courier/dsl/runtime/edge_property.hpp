#pragma once
// EdgeProperty<T>: a propEdge<T> on one rank: a value per out-edge stored here, in CSR order, and
// per in-edge too where the partition holds in-edges (a loop over g.nodes_to(v) reads them there).
// A master's edges are all on its rank, so an edge property never travels. An in-edge's value is
// the graph's weight or what attachEdgeProperty (fill) set: a program that sets edges one by one
// (set_out, on out-edges) may not read them over in-edges, which codegen refuses. The graph's
// weights are read where the partition keeps them, not copied, until the program writes them.
#include <algorithm>
#include <type_traits>
#include <variant>
#include <vector>

#include "courier/dsl/runtime/graph.hpp"

namespace courier::dsl::rt {

template <class T>
class EdgeProperty {
 public:
  using value_type = T;

  explicit EdgeProperty(Graph& g, T initial = T{}) : EdgeProperty(g, Unfilled{}) { fill(initial); }
  EdgeProperty(const EdgeProperty&) = delete;
  EdgeProperty& operator=(const EdgeProperty&) = delete;
  EdgeProperty(EdgeProperty&&) = default;  // a vector's move keeps its buffer, so the pointers hold

  // The graph's weights as T (Error when the graph has none): read where they are when T is the
  // stored type or its signed or unsigned twin (which may alias it), copied otherwise.
  static EdgeProperty weights(Graph& g) {
    EdgeProperty p(g, Unfilled{});
    p.out_values_ = view_or_copy(g.partition().out().weights, p.out_);
    if (g.partition().has_in_edges()) p.in_values_ = view_or_copy(g.partition().in().weights, p.in_);
    return p;
  }
  // Before a program writes the property edge by edge: the values it only viewed become its own
  // copy (generated code calls it first, on the calling thread; fill needs no call).
  void own() {
    if (out_values_ != out_.data()) out_values_ = copy(out_values_, out_size_, out_);
    if (in_values_ != in_.data()) in_values_ = copy(in_values_, in_size_, in_);
  }

  T out(edge e) const { return out_values_[e]; }
  T in(edge e) const { return in_values_[e]; }
  void set_out(edge e, T x) { out_[e] = x; }  // after own()
  void fill(T x) {
    out_.assign(out_size_, x);
    in_.assign(in_size_, x);
    out_values_ = out_.data();
    in_values_ = in_.data();
  }

 private:
  // Sized for the partition's edges, holding no values yet.
  struct Unfilled {};
  EdgeProperty(const Graph& g, Unfilled)
      : out_size_(g.partition().out().targets.size()),
        in_size_(g.partition().has_in_edges() ? g.partition().in().targets.size() : 0) {}

  // Where the values of `weights` are read from: the graph's own array, or `own` filled with them.
  static const T* view_or_copy(const graph::EdgeWeights& weights, std::vector<T>& own) {
    return std::visit(
        [&](const auto& w) -> const T* {
          using W = std::decay_t<decltype(w)>;
          if constexpr (std::is_same_v<W, std::monostate>) {
            throw Error("a program reads edge weights, but the graph has none (generate with --weights)");
          } else {
            using Stored = typename W::value_type;
            if constexpr (aliases<Stored>()) {
              return reinterpret_cast<const T*>(w.data());
            } else {
              own.assign(w.begin(), w.end());
              return own.data();
            }
          }
        },
        weights);
  }
  // May a T read what is stored as Stored: the same type, or its signed or unsigned twin?
  template <class Stored>
  static constexpr bool aliases() {
    if constexpr (std::is_same_v<Stored, T>) {
      return true;
    } else if constexpr (std::is_integral_v<Stored> && std::is_integral_v<T> && !std::is_same_v<Stored, bool> &&
                         !std::is_same_v<T, bool>) {
      return std::is_same_v<std::make_signed_t<Stored>, std::make_signed_t<T>>;
    } else {
      return false;
    }
  }
  static const T* copy(const T* from, std::size_t n, std::vector<T>& to) {
    to.assign(from, from + n);
    return to.data();
  }

  std::size_t out_size_ = 0, in_size_ = 0;  // the partition's out- and in-edges
  std::vector<T> out_;                       // this property's own values (empty while it views the graph's)
  std::vector<T> in_;
  const T* out_values_ = nullptr;  // what out() and in() read: the own values or the graph's weights
  const T* in_values_ = nullptr;
};

}  // namespace courier::dsl::rt
