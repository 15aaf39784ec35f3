#pragma once
// Which edges of its masters a rank must hold for a program: out-edges for g.neighbors(v),
// in-edges for g.nodes_to(v), or both (cc's propagation both ways). The dsl engine partitions the
// graph so that every master's rows of the kinds a program visits are complete on its rank:
// an outgoing edge cut for out, an incoming edge cut for in, and for both an outgoing cut whose
// edges are also copied to their destinations' ranks (StarPlat's graph keeps both lists too).
#include <cstdint>

namespace courier::dsl::rt {

enum class Layout : std::uint8_t { out, in, both };

constexpr const char* to_string(Layout layout) {
  return layout == Layout::out ? "out" : layout == Layout::in ? "in" : "both";
}

// Which code courierc generated: with paper 004's transformations, or as StarPlat's original
// distributed backend would (every access through the window, reductions queued per statement).
enum class Generation : std::uint8_t { optimised, naive };

// What courierc found a function to need; the generated header states it beside the function.
struct Needs {
  bool out_edges = false;
  bool in_edges = false;
  // The optimised generation sums its in-edge loops where the edges are (courier/dsl/analysis.hpp,
  // "Split pulls"): an outgoing cut with each rank's own edges turned around serves them, no
  // master needs its complete in-edges.
  bool split_pulls = false;
  // The optimised generation may run pushes bottom-up ("Bottom-up steps"): each rank's own edges
  // turned around too.
  bool bottom_up = false;

  friend constexpr bool operator==(const Needs&, const Needs&) = default;

  constexpr Layout layout(Generation generation) const {
    const bool in = in_edges && !(split_pulls && generation == Generation::optimised);
    if (out_edges && in) return Layout::both;
    return in ? Layout::in : Layout::out;
  }
  // Whether the partition must also hold each rank's own edges turned around (its in-edges).
  constexpr bool own_in_edges(Generation generation) const {
    return generation == Generation::optimised && (split_pulls || bottom_up);
  }
};

constexpr const char* to_string(Generation generation) {
  return generation == Generation::naive ? "naive" : "optimised";
}

}  // namespace courier::dsl::rt
