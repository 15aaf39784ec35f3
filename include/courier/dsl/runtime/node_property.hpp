#pragma once
// NodeProperty<T>: a propNode<T> on one rank: a value per proxy. A master's value is the node's;
// a mirror's is a copy of it, valid after a refresh, which the rank reads where a loop reaches a
// node another rank owns. Reductions of an aggregated pulse update a master at once (short
// circuiting) and a mirror in place until the pulse ends, when finish_reduce combines every
// rank's mirrors into their masters in one bulk reduction. Idempotent reductions (Min, Max) use
// the mirror's own slot, which must then be on the reduction's losing side of its master (a Min
// at a mirror holding less than its master would swallow updates): what mirrors hold is tracked
// (Side), and prepare_reduce resets them to the identity when it is not known. Sums and products,
// and any reduction of a property read through mirrors, keep the mirror's contributions apart
// (partial), so its copy stays the master's value.
// get/put are the window path of the naive generation: every access takes the property's window,
// and a read of another rank's node is a one-sided get from its master (begin_gets .. end_gets).
#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <shared_mutex>
#include <type_traits>
#include <vector>

#include "courier/core/bitset.hpp"
#include "courier/core/error.hpp"
#include "courier/core/timer.hpp"
#include "courier/dsl/runtime/access_profile.hpp"
#include "courier/dsl/runtime/graph.hpp"
#include "courier/dsl/runtime/window.hpp"

namespace courier::dsl::rt {

// What a refresh sends: the masters changed since the last one (opportunistic caching), or every
// master (what is fetched without knowing whether it changed). Either sends nothing, in the
// optimised generation, when no master of a tracked property was written since the last refresh.
enum class Fetch : std::uint8_t { changed, all };

// For reductions without a multi-assignment.
struct NoAlso {
  void operator()(local) const {}
};

template <class T>
class NodeProperty {
 public:
  using value_type = T;

  explicit NodeProperty(Graph& g, T initial = T{})
      : g_(g), values_(g.proxies(), initial), pending_(g.proxies()), changed_(g.proxies()) {}
  NodeProperty(const NodeProperty&) = delete;
  NodeProperty& operator=(const NodeProperty&) = delete;

  // From now on masters that change are marked, so that a refresh sends only them. Generated
  // code asks it, where the function starts, of every property some loop reads through mirrors.
  void track() { tracked_ = true; }

  // ---- collective code (one thread)
  T& operator[](local v) { return values_[v]; }
  const T& operator[](local v) const { return values_[v]; }
  void fill(T x) {
    std::fill(values_.begin(), values_.end(), x);
    changed_.clear();
    stale_ = false;
    side_ = Side::equal;
  }
  void copy_from(const NodeProperty& other) {
    // By the rank's threads: a step of pagerank copies every node's rank.
    const T* from = other.values_.data();
    T* to = values_.data();
    g_.for_chunks(values_.size(), kCopyChunk, [from, to](std::size_t begin, std::size_t end, unsigned) {
      std::copy(from + begin, from + end, to + begin);
    });
    take_state_of(other);
  }
  // copy_from() where `other` is dead until every node of it is written again (the analysis's
  // property moves): the two exchange their values, and `other` holds anything, mirrors unknown.
  // Collective, in the optimised generation (no window holds either's values).
  void move_from(NodeProperty& other) {
    if (remote_ || other.remote_) throw Error("dsl: a property with a window cannot move its values");
    values_.swap(other.values_);
    take_state_of(other);
    other.changed_.clear();
    other.mark_all_masters(other.changed_);
    other.stale_ = true;
    other.side_ = Side::unknown;
  }
  // A statement of every rank on node n: every proxy of n takes it, so copies stay equal.
  void assign_everywhere(node n, T x) {
    if (const auto v = g_.find_proxy(n)) values_[*v] = x;
  }
  template <class Op>
  void reduce_everywhere(node n, T x) {
    if (const auto v = g_.find_proxy(n)) Op::combine(values_[*v], x);
  }
  // n's value on every rank (its owner's). Collective.
  T value_of(node n) {
    const auto v = g_.find_proxy(n);
    struct Offer {
      T value;
      bool owner;
    };
    const Offer mine{v && g_.is_master(*v) ? values_[*v] : T{}, v && g_.is_master(*v)};
    sync::Bytes bytes(sizeof(Offer));
    std::memcpy(bytes.data(), &mine, sizeof(Offer));
    Timer timer;
    const auto all = g_.engine().exchange(std::vector<sync::Bytes>(static_cast<std::size_t>(g_.ranks()), bytes));
    g_.phases().remote_read_seconds += timer.elapsed();
    for (const sync::Bytes& theirs : all) {
      Offer offer;
      std::memcpy(&offer, theirs.data(), sizeof(Offer));
      if (offer.owner) return offer.value;
    }
    return T{};
  }

  // ---- inside loops (threads of a rank may meet at a slot: relaxed atomics, plain moves on x86)
  T load(local v) const { return std::atomic_ref<T>(const_cast<T&>(values_[v])).load(std::memory_order_relaxed); }
  // v is a master only this thread writes.
  void store(local v, T x) {
    if (tracked_ && load(v) != x) changed_.set(v);
    std::atomic_ref<T>(values_[v]).store(x, std::memory_order_relaxed);
  }
  // store() where this thread alone writes v's 64-bit word of marks too.
  void store_exclusive(local v, T x) {
    if (tracked_ && load(v) != x) changed_.set_exclusive(v);
    std::atomic_ref<T>(values_[v]).store(x, std::memory_order_relaxed);
  }
  // The window, as StarPlat's distributed backend reads and writes every property: this rank's
  // nodes under the window's lock, another rank's node by a one-sided get from its master once
  // begin_gets opened the window.
  [[gnu::noinline]] T get(local v) const {
    if (v >= g_.masters() && remote_) return profiled(Access::remote_get, [&] { return fetch(v); });
    return profiled(Access::local_get, [&] {
      std::shared_lock lock(window_);
      return load(v);
    });
  }
  [[gnu::noinline]] void put(local v, T x) {
    std::shared_lock lock(window_);
    store(v, x);
  }
  // Collective, around a pulse of the naive generation that reads other ranks' nodes: the window
  // over every rank's masters (made at the first), then the epoch its gets fall in.
  void begin_gets() {
    if (g_.ranks() == 1) return;
    Timer timer;
    if (!remote_) remote_ = std::make_unique<Window>(g_.engine(), values_.data(), sizeof(T), g_.masters());
    remote_->begin_epoch();
    g_.phases().remote_read_seconds += timer.elapsed();
    ++g_.phases().remote_reads;
  }
  void end_gets() {
    if (!remote_) return;
    Timer timer;
    remote_->end_epoch();
    g_.phases().remote_read_seconds += timer.elapsed();
  }
  // After a loop that assigned masters: mirrors may be out of date.
  void wrote() {
    stale_ = true;
    side_ = Side::unknown;
  }

  // ---- reductions of an aggregated pulse
  template <class Op>
  void prepare_reduce() {
    if (accumulates<Op>()) {
      if (partial_.empty()) partial_.assign(values_.size(), Op::template identity<T>());
      return;
    }
    // In place: mirrors nobody reads may start from the identity, the losing side of any master.
    if (side_ != Side::equal && side_ != side_of<Op>()) {
      std::fill(values_.begin() + g_.masters(), values_.end(), Op::template identity<T>());
      side_ = side_of<Op>();
    }
  }
  // One update: true when it changed a master (the multi-assignment's condition).
  template <class Op>
  bool reduce(local v, T x) {
    return Reducer<Op>(*this).reduce(v, x);
  }
  template <class Op, class Also>
  void reduce(local v, T x, Also&& also) {
    if (reduce<Op>(v, x)) also(v);
  }
  // load() and reduce() through a view taken where a loop over one node's edges starts: its pointers
  // and flags are its own, so the compiler keeps them in registers across the loop, where through
  // the property it reloads them after every update (a store might alias them). The neighbour
  // loops of the optimised generation reduce through one; it lives no longer than its loop.
  template <class Op>
  class Reducer {
   public:
    explicit Reducer(NodeProperty& p)
        : values_(p.values_.data()),
          mirror_slots_(p.template accumulates<Op>() ? p.partial_.data() : p.values_.data()),
          masters_(p.g_.masters()),
          tracked_(p.tracked_),
          pending_(&p.pending_),
          changed_(&p.changed_) {}
    T load(local v) const { return std::atomic_ref<T>(values_[v]).load(std::memory_order_relaxed); }
    // A master is updated at once, a mirror's contribution kept for the pulse's end (see above).
    bool reduce(local v, T x) const {
      if (v < masters_) {
        if (!combine_atomic<Op>(values_[v], x)) return false;
        if (tracked_) changed_->set(v);
        return true;
      }
      if (combine_atomic<Op>(mirror_slots_[v], x)) pending_->set(v);
      return false;
    }
    template <class Also>
    void reduce(local v, T x, Also&& also) const {
      if (reduce(v, x)) also(v);
    }
    // reduce() where this thread alone writes v and v's 64-bit words of marks (a bottom-up step's
    // node: its loop hands out whole words): no atomic read-modify-write.
    bool reduce_exclusive(local v, T x) const {
      T* slot = v < masters_ ? values_ + v : mirror_slots_ + v;
      T value = std::atomic_ref<T>(*slot).load(std::memory_order_relaxed);
      if (!Op::combine(value, x)) return false;
      std::atomic_ref<T>(*slot).store(value, std::memory_order_relaxed);
      if (v >= masters_) {
        pending_->set_exclusive(v);
        return false;
      }
      if (tracked_) changed_->set_exclusive(v);
      return true;
    }
    template <class Also>
    void reduce_exclusive(local v, T x, Also&& also) const {
      if (reduce_exclusive(v, x)) also(v);
    }
    // Whether reduce(v, x) could change anything: the master's value, or the mirror's slot in this
    // pulse, would move (a bottom-up step skips the nodes an offer cannot lower).
    bool moves(local v, T x) const {
      T current = std::atomic_ref<T>(v < masters_ ? values_[v] : mirror_slots_[v]).load(std::memory_order_relaxed);
      return Op::combine(current, x);
    }

   private:
    T* values_;
    T* mirror_slots_;  // partial_ when the reduction accumulates, else the mirrors' own values
    local masters_;
    bool tracked_;
    Bitset* pending_;
    Bitset* changed_;
  };
  template <class Op>
  Reducer<Op> reducer() {
    return Reducer<Op>(*this);
  }
  // The pulse's end: every rank's mirrors into their masters (collective); also(m) for each master
  // that changed by them.
  template <class Op, class Also = NoAlso>
  void finish_reduce(Also&& also = {}) {
    if (g_.ranks() == 1) return;
    Timer timer;
    const local masters = g_.masters();
    if (accumulates<Op>()) {
      g_.substrate().template reduce<Op>(partial_, pending_);
      pending_.tidy();
      pending_.for_each(0, masters, [&](std::size_t m) {
        if (Op::combine(values_[m], partial_[m])) {
          if (tracked_) changed_.set(m);
          also(static_cast<local>(m));
        }
        partial_[m] = Op::template identity<T>();
      });
      if constexpr (!Op::reset_mirrors)
        std::fill(partial_.begin() + masters, partial_.end(), Op::template identity<T>());
      // Masters only moved Op's way, so mirrors that held their values are now on its losing side.
      side_ = side_ == Side::equal || side_ == side_of<Op>() ? side_of<Op>() : Side::unknown;
    } else {
      g_.substrate().template reduce<Op>(values_, pending_);
      pending_.tidy();
      pending_.for_each(0, masters, [&](std::size_t m) {
        if (tracked_) changed_.set(m);
        also(static_cast<local>(m));
      });
    }
    pending_.clear();
    stale_ = true;
    g_.phases().reduction_seconds += timer.elapsed();
    ++g_.phases().reductions;
  }
  // A queued update arriving at master m (one thread applies them): true when it changed m. The
  // queue's end calls wrote() on every rank.
  template <class Op>
  bool apply(local m, T x) {
    if (!Op::combine(values_[m], x)) return false;
    if (tracked_) changed_.set(m);
    return true;
  }

  // ---- mirrors
  // Masters' values to the ranks that mirror them (collective). Fetch::changed sends nothing when
  // nothing changed since the last refresh.
  void refresh(Fetch fetch) {
    if (g_.ranks() == 1) return;
    // Nothing written since the last refresh: mirrors hold their masters' values (dirty tracking).
    // The naive generation fetches all the same, as StarPlat's backend does.
    if (tracked_ && !stale_ && (fetch == Fetch::changed || !g_.naive())) return;
    Timer timer;
    if (fetch == Fetch::all || !tracked_) mark_all_masters(changed_);
    g_.substrate().broadcast(values_, changed_);
    changed_.clear();
    stale_ = false;
    side_ = Side::equal;
    g_.phases().remote_read_seconds += timer.elapsed();
    ++g_.phases().remote_reads;
  }

  std::vector<T>& values() { return values_; }
  const std::vector<T>& values() const { return values_; }

 private:
  // What mirrors hold: their masters' values, values a Min (Max) reduction cannot lose to, or
  // anything. Every rank agrees (it changes in collective calls only).
  enum class Side : std::uint8_t { equal, above, below, unknown };
  template <class Op>
  static constexpr Side side_of() {
    if constexpr (std::is_same_v<Op, Min>) return Side::above;
    if constexpr (std::is_same_v<Op, Max>) return Side::below;
    return Side::unknown;
  }
  template <class Op>
  bool accumulates() const {
    return Op::reset_mirrors || tracked_ || side_of<Op>() == Side::unknown;
  }
  void mark_all_masters(Bitset& marks) const { marks.set_range(0, g_.masters()); }
  // After taking `other`'s values, mirrors included: what they were to its masters, they are now.
  void take_state_of(const NodeProperty& other) {
    changed_.clear();
    if (other.tracked_) {
      changed_.add_all(other.changed_);
    } else {
      mark_all_masters(changed_);  // its mirrors may hold anything
    }
    stale_ = !other.tracked_ || other.stale_;
    side_ = other.side_;
  }
  T fetch(local mirror) const {
    T x;
    remote_->get(g_.owner(mirror), g_.master_index(mirror), &x);
    return x;
  }
  static constexpr std::size_t kCopyChunk = std::size_t{1} << 16;

  Graph& g_;
  std::vector<T> values_;
  std::vector<T> partial_;  // mirrors' contributions kept apart, by accumulates()
  Bitset pending_;          // mirrors with contributions; after a reduce, masters they changed
  Bitset changed_;          // masters changed since the last refresh (tracked properties)
  bool tracked_ = false;
  bool stale_ = false;  // some mirror may differ from its master (every rank agrees)
  Side side_ = Side::equal;
  mutable std::shared_mutex window_;
  std::unique_ptr<Window> remote_;  // the naive generation's one-sided gets, once a pulse asked
};

}  // namespace courier::dsl::rt
