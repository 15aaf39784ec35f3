#pragma once
// Accumulation<T, Op>: one reduction statement of the naive generation, as StarPlat's distributed
// backend runs it: every update, to a node of this rank or another's, is a one-sided accumulate
// into a slot its owner keeps for the statement (rt::Window: MPI_Accumulate, or in place), and
// what landed is combined into the owners' masters when the statement synchronises, at the end of
// its pulse. Collective to make (the epoch; at the statement's first run its window) and to finish.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>
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
  // Unsigned 64-bit values under Min or Max travel as signed ones of the same order (the top bit
  // flipped): MPICH 4.0.2's MPI_MIN and MPI_MAX compare MPI_UINT64_T accumulates as signed, so a
  // node id against the identity 2^64 - 1 kept the identity.
  static constexpr bool kOrdered =
      std::is_same_v<T, std::uint64_t> && (std::is_same_v<Op, Min> || std::is_same_v<Op, Max>);
  using Slot = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, std::conditional_t<kOrdered, std::int64_t, T>>;
  static Slot encode(T x) {
    if constexpr (kOrdered) return static_cast<Slot>(x ^ (std::uint64_t{1} << 63));
    return static_cast<Slot>(x);
  }
  static T decode(Slot x) {
    if constexpr (kOrdered) return static_cast<T>(x) ^ (std::uint64_t{1} << 63);
    return static_cast<T>(x);
  }

 public:
  // `statement` names the statement in its program: its slots and window are made at its first
  // run and kept for the next (a window is a collective allocation; StarPlat's live as long).
  Accumulation(Graph& g, std::string_view statement) : g_(g) {
    Timer timer;
    state_ = &g.statement_state<State>(statement, [&] {
      auto made = std::make_unique<State>();
      made->landed.assign(g.masters(), Op::template identity<Slot>());
      made->window = std::make_unique<Window>(g.engine(), made->landed.data(), sizeof(Slot), made->landed.size(),
                                              Window::Use::accumulates);
      return made;
    });
    std::fill(state_->landed.begin(), state_->landed.end(), Op::template identity<Slot>());
    state_->window->begin_epoch();
    g_.phases().reduction_seconds += timer.elapsed();
  }

  // The update of `target` by `value`. Any thread of the rank, inside the pulse.
  void push(unsigned /*member*/, local target, T value) {
    profiled(Access::accumulate, [&] {
      state_->window->template accumulate<Op>(g_.owner(target), g_.master_index(target), encode(value));
      return true;
    });
  }

  // Collective: what landed, combined into `property`'s masters with Op; also(m) for each master
  // that changed.
  template <class Same, class Property, class Also = NoAlso>
  void finish(Property& property, Also&& also = {}) {
    static_assert(std::is_same_v<Same, Op>);
    Timer timer;
    state_->window->end_epoch();
    const std::vector<Slot>& landed = state_->landed;
    const Slot identity = Op::template identity<Slot>();
    for (local m = 0; m < g_.masters(); ++m) {
      if (landed[m] == identity) continue;
      if (property.template apply<Op>(m, static_cast<typename Property::value_type>(decode(landed[m])))) also(m);
    }
    property.wrote();
    g_.phases().reduction_seconds += timer.elapsed();
    ++g_.phases().reductions;
  }

 private:
  struct State {
    std::vector<Slot> landed;  // by master: this statement's updates of it, combined
    std::unique_ptr<Window> window;
  };
  Graph& g_;
  State* state_;
};

}  // namespace courier::dsl::rt
