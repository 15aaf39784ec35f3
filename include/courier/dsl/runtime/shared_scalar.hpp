#pragma once
// Partial<T, Op>: a scalar declared outside a vertex loop and reduced inside it (`change += step`):
// each thread of the rank combines into its own slot, and where the loop ends the slots of every
// thread and rank are combined into the scalar (collective), the same on every rank.
#include <vector>

#include "courier/dsl/runtime/graph.hpp"

namespace courier::dsl::rt {

template <class T, class Op>
class Partial {
 public:
  explicit Partial(Graph& g) : g_(g), slots_(g.members()) {}

  void reduce(unsigned member, T x) { Op::combine(slots_[member].value, x); }
  // `initial` combined with every update of every thread and rank. Collective.
  T finish(T initial) {
    T mine = Op::template identity<T>();
    for (const Slot& slot : slots_) Op::combine(mine, slot.value);
    Op::combine(initial, g_.template all_reduce<Op>(mine));
    return initial;
  }

 private:
  struct alignas(64) Slot {  // a cache line each: threads do not share one
    T value = Op::template identity<T>();
  };
  Graph& g_;
  std::vector<Slot> slots_;
};

}  // namespace courier::dsl::rt
