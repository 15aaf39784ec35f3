#pragma once
// Accumulation<T, Op>: one reduction statement of the naive generation, as StarPlat's distributed
// backend runs it: every update, to a node of this rank or another's, is a one-sided accumulate
// into a slot its owner keeps for the statement (rt::Window: MPI_Accumulate, or in place), and
// what landed is combined into the owners' masters when the statement synchronises, at the end of
// its pulse. Collective to make (the window and its epoch) and to finish.
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "courier/core/timer.hpp"
#include "courier/dsl/runtime/access_profile.hpp"
#include "courier/dsl/runtime/graph.hpp"
#include "courier/dsl/runtime/node_property.hpp"
#include "courier/dsl/runtime/window.hpp"

namespace courier::dsl::rt {

template <class T, class Op>
class Accumulation {
  using Slot = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

 public:
  explicit Accumulation(Graph& g) : g_(g), landed_(g.masters(), Op::template identity<Slot>()) {
    Timer timer;
    window_ =
        std::make_unique<Window>(g.engine(), landed_.data(), sizeof(Slot), landed_.size(), Window::Use::accumulates);
    window_->begin_epoch();
    g_.phases().reduction_seconds += timer.elapsed();
  }

  // The update of `target` by `value`. Any thread of the rank, inside the pulse.
  void push(unsigned /*member*/, local target, T value) {
    profiled(Access::accumulate, [&] {
      window_->accumulate<Op>(g_.owner(target), g_.master_index(target), static_cast<Slot>(value));
      return true;
    });
  }

  // Collective: what landed, combined into `property`'s masters with Op; also(m) for each master
  // that changed.
  template <class Same, class Property, class Also = NoAlso>
  void finish(Property& property, Also&& also = {}) {
    static_assert(std::is_same_v<Same, Op>);
    Timer timer;
    window_->end_epoch();
    const Slot identity = Op::template identity<Slot>();
    for (local m = 0; m < g_.masters(); ++m) {
      if (landed_[m] == identity) continue;
      if (property.template apply<Op>(m, static_cast<typename Property::value_type>(landed_[m]))) also(m);
    }
    property.wrote();
    g_.phases().reduction_seconds += timer.elapsed();
    ++g_.phases().reductions;
  }

 private:
  Graph& g_;
  std::vector<Slot> landed_;  // by master: this statement's updates of it, combined
  std::unique_ptr<Window> window_;
};

}  // namespace courier::dsl::rt
