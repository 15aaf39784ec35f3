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

// What courierc found a function to need; the generated header states it beside the function.
struct Needs {
  bool out_edges = false;
  bool in_edges = false;

  constexpr Layout layout() const {
    if (out_edges && in_edges) return Layout::both;
    return in_edges ? Layout::in : Layout::out;
  }
};

// Which code courierc generated: with paper 004's transformations, or as StarPlat's original
// distributed backend would (every access through the window, reductions queued per statement).
enum class Generation : std::uint8_t { optimised, naive };

constexpr const char* to_string(Generation generation) {
  return generation == Generation::naive ? "naive" : "optimised";
}

}  // namespace courier::dsl::rt
