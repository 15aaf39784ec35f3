#pragma once
// NodeFlags: a propNode<bool>, kept as a frontier (a bitset, listed when few are set), so that a
// loop filtered on it (`forall (v in g.nodes().filter(modified == True))`) visits the flagged
// masters only, a copy or a reset costs a word per 64 nodes, and fixedPoint counts it a word at a
// time. Otherwise it behaves as NodeProperty<bool>: masters hold the nodes' values, mirrors
// copies, ||= and &&= of an aggregated pulse go to masters at once and to mirrors until its end.
#include <cstdint>
#include <shared_mutex>
#include <vector>

#include "courier/core/bitset.hpp"
#include "courier/core/timer.hpp"
#include "courier/dsl/runtime/graph.hpp"
#include "courier/dsl/runtime/node_property.hpp"
#include "courier/vertex/frontier.hpp"

namespace courier::dsl::rt {

class NodeFlags {
 public:
  using value_type = bool;

  explicit NodeFlags(Graph& g, bool initial = false)
      : g_(g), flags_(g.proxies()), pending_(g.proxies()), changed_(g.proxies()) {
    fill(initial);
  }
  NodeFlags(const NodeFlags&) = delete;
  NodeFlags& operator=(const NodeFlags&) = delete;

  void track() { tracked_ = true; }
  vertex::Frontier& frontier() { return flags_; }

  // ---- collective code
  bool operator[](local v) const { return flags_.contains(v); }
  void fill(bool x) {
    flags_.clear();
    if (x)
      for (local v = 0; v < g_.proxies(); ++v) flags_.bits().set_exclusive(v);
    changed_.clear();
    stale_ = false;
  }
  void copy_from(const NodeFlags& other) {
    flags_.clear();
    flags_.bits().add_all(other.flags_.bits());
    changed_.clear();
    if (other.tracked_) {
      changed_.add_all(other.changed_);
    } else if (tracked_) {
      mark_all_masters();  // (untracked flags mark every master when they refresh)
    }
    stale_ = !other.tracked_ || other.stale_;
  }
  void assign_everywhere(node n, bool x) {
    const auto v = g_.find_proxy(n);
    if (!v) return;
    if (x) {
      flags_.bits().set(*v);
    } else {
      reset(*v);
    }
  }
  // This rank's flagged masters.
  std::uint64_t count() const { return flags_.bits().count(0, g_.masters()); }

  // ---- inside loops
  bool load(local v) const { return flags_.contains(v); }
  // The flags read with plain loads, for a loop that tests them while no thread writes them (a
  // bottom-up step's test of its flagged in-neighbours): the compiler keeps its pointer in a register.
  Bitset::View view() const { return flags_.bits().view(); }
  void store(local v, bool x) {
    const bool changed = x ? flags_.bits().set(v) : reset(v);
    if (changed && tracked_) changed_.set(v);
  }
  // store() where this thread alone writes v's 64-bit words (a bottom-up step's node).
  void store_exclusive(local v, bool x) {
    if (load(v) == x) return;
    if (x)
      flags_.bits().set_exclusive(v);
    else
      flags_.bits().reset(v);
    if (tracked_) changed_.set_exclusive(v);
  }
  [[gnu::noinline]] bool get(local v) const {
    std::shared_lock lock(window_);
    return load(v);
  }
  [[gnu::noinline]] void put(local v, bool x) {
    std::shared_lock lock(window_);
    store(v, x);
  }
  void wrote() { stale_ = true; }

  // ---- reductions of an aggregated pulse: Or (||=) and And (&&=)
  template <class Op>
  void prepare_reduce() {}
  template <class Op>
  bool reduce(local v, bool x) {
    constexpr bool kOr = std::is_same_v<Op, Or>;
    static_assert(kOr || std::is_same_v<Op, And>, "a bool property reduces with ||= or &&=");
    if (x != kOr) return false;  // false ||= and true &&= change nothing
    if (!g_.is_master(v)) {
      pending_.set(v);  // this mirror contributes x
      return false;
    }
    const bool changed = kOr ? flags_.bits().set(v) : reset(v);
    if (changed && tracked_) changed_.set(v);
    return changed;
  }
  template <class Op, class Also>
  void reduce(local v, bool x, Also&& also) {
    if (reduce<Op>(v, x)) also(v);
  }
  template <class Op, class Also = NoAlso>
  void finish_reduce(Also&& also = {}) {
    if (g_.ranks() == 1) return;
    Timer timer;
    constexpr bool kOr = std::is_same_v<Op, Or>;
    std::vector<std::uint8_t> values(g_.proxies(), kOr ? 0 : 1);
    for (local m = 0; m < g_.masters(); ++m) values[m] = load(m);
    pending_.for_each(g_.masters(), g_.proxies(), [&](std::size_t v) { values[v] = kOr; });
    g_.substrate().template reduce<Op>(values, pending_);
    pending_.tidy();
    pending_.for_each(0, g_.masters(), [&](std::size_t m) {
      const local v = static_cast<local>(m);
      if (kOr ? flags_.bits().set(v) : reset(v)) {
        if (tracked_) changed_.set(v);
        also(v);
      }
    });
    pending_.clear();
    stale_ = true;
    g_.phases().reduction_seconds += timer.elapsed();
    ++g_.phases().reductions;
  }
  template <class Op>
  bool apply(local m, bool x) {
    if (x != std::is_same_v<Op, Or>) return false;
    const bool changed = x ? flags_.bits().set(m) : reset(m);
    if (changed && tracked_) changed_.set(m);
    return changed;
  }

  void refresh(Fetch fetch) {
    if (g_.ranks() == 1) return;
    // Nothing written since the last refresh: mirrors hold their masters' values (dirty tracking).
    // The naive generation fetches all the same, as StarPlat's backend does.
    if (tracked_ && !stale_ && (fetch == Fetch::changed || !g_.naive())) return;
    Timer timer;
    if (fetch == Fetch::all || !tracked_) mark_all_masters();
    std::vector<std::uint8_t> values(g_.proxies(), 0);
    for (local m = 0; m < g_.masters(); ++m) values[m] = load(m);
    g_.substrate().broadcast(values, changed_);
    changed_.for_each(g_.masters(), g_.proxies(), [&](std::size_t v) {
      if (values[v]) {
        flags_.bits().set(v);
      } else {
        reset(static_cast<local>(v));
      }
    });
    changed_.clear();
    stale_ = false;
    g_.phases().remote_read_seconds += timer.elapsed();
    ++g_.phases().remote_reads;
  }

 private:
  bool reset(local v) {
    if (!flags_.bits().test(v)) return false;
    flags_.bits().reset(v);
    return true;
  }
  void mark_all_masters() { changed_.set_range(0, g_.masters()); }

  Graph& g_;
  vertex::Frontier flags_;
  Bitset pending_;  // mirrors contributing to this pulse's reduction; then masters it changed
  Bitset changed_;  // masters changed since the last refresh (tracked)
  bool tracked_ = false;
  bool stale_ = false;
  mutable std::shared_mutex window_;
};

}  // namespace courier::dsl::rt
