#pragma once
// Substrate: master/mirror synchronisation of labels over a Channel (Gluon's gather-communicate-
// scatter). reduce() combines the updated mirrors of every vertex into its master; broadcast()
// copies updated masters to their mirrors. Only labels marked in the `updated` bitset travel.
// Compute threads of the team gather per-destination buffers in parallel and scatter received
// buffers as they arrive, in any order; scatters into masters combine atomically because one
// master may hear from several ranks at once.
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "courier/core/backoff.hpp"
#include "courier/core/bitset.hpp"
#include "courier/core/thread_team.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/sync/channel.hpp"
#include "courier/sync/wait.hpp"
#include "courier/sync/wire.hpp"

namespace courier::sync {

using dist::local_t;

struct SyncStats {
  std::uint64_t reduces = 0;
  std::uint64_t broadcasts = 0;
  double seconds = 0;  // wall time inside reduce/broadcast
};

class Substrate {
 public:
  Substrate(const dist::LocalGraph& graph, Channel& channel, ThreadTeam& team);

  const dist::LocalGraph& graph() const { return graph_; }
  Channel& channel() { return channel_; }
  const SyncStats& stats() const { return stats_; }

  // Mirrors -> masters with Op (Min, Max, Sum, LogicalOr from reduction.hpp). A master whose value
  // changes is marked in `updated`; mirrors are unmarked, and reset to Op's identity if Op says so.
  template <class Op, class T>
  void reduce(std::vector<T>& value, Bitset& updated);

  // Masters -> mirrors. A mirror that receives a value is marked in `updated`.
  template <class T>
  void broadcast(std::vector<T>& value, Bitset& updated);

 private:
  struct Pattern {
    std::vector<rank_t> to, from;
    std::size_t reserved_value_bytes = 0;  // the value size the channel was sized for
  };
  // Reduce: send my mirrors to their owners, receive for my masters. Broadcast: the reverse.
  std::span<const local_t> reduce_send_list(rank_t peer) const { return graph_.mirrors_owned_by(peer); }
  std::span<const local_t> reduce_receive_list(rank_t peer) const { return graph_.masters_mirrored_on(peer); }

  void reserve(Pattern& pattern, bool reducing, std::size_t value_bytes);

  template <class T, class SendList, class Scatter>
  void exchange(Pattern& pattern, bool reducing, std::vector<T>& value, const Bitset& updated,
                SendList send_list, Scatter scatter);

  const dist::LocalGraph& graph_;
  Channel& channel_;
  ThreadTeam& team_;
  Pattern reduce_, broadcast_;
  SyncStats stats_;
};

// ---- templates ----

template <class T, class SendList, class Scatter>
void Substrate::exchange(Pattern& pattern, bool reducing, std::vector<T>& value, const Bitset& updated,
                         SendList send_list, Scatter scatter) {
  reserve(pattern, reducing, sizeof(T));
  channel_.begin_phase(pattern.to, pattern.from);
  std::atomic<std::size_t> next_send{0}, received{0};
  const std::size_t expected = pattern.from.size();
  team_.run([&](unsigned) {
    // Gather: each member takes whole destinations until none are left.
    for (std::size_t i = next_send.fetch_add(1); i < pattern.to.size(); i = next_send.fetch_add(1)) {
      const rank_t peer = pattern.to[i];
      const auto list = send_list(peer);
      Bytes message = channel_.acquire(max_message_bytes(list.size(), sizeof(T)));
      encode<T, local_t>(list, updated, std::span<const T>(value), message);
      channel_.send(peer, std::move(message));
    }
    // Scatter: take messages as they arrive until all have been taken, backing off while none
    // is there (ranks may outnumber cores).
    Backoff backoff(kPhaseWait);
    while (received.load(std::memory_order_acquire) < expected) {
      auto message = channel_.try_receive();
      if (!message) {
        backoff.pause();
        continue;
      }
      backoff.reset();
      scatter(message->source, std::span<const std::byte>(message->bytes));
      channel_.release(std::move(message->bytes));
      received.fetch_add(1, std::memory_order_acq_rel);
    }
  });
  channel_.end_phase();
}

template <class Op, class T>
void Substrate::reduce(std::vector<T>& value, Bitset& updated) {
  Timer timer;
  exchange(reduce_, true, value, updated, [&](rank_t peer) { return reduce_send_list(peer); },
           [&](rank_t source, std::span<const std::byte> bytes) {
             const auto masters = reduce_receive_list(source);
             decode<T>(bytes, masters.size(), [&](std::size_t i, T incoming) {
               const local_t master = masters[i];
               std::atomic_ref<T> target(value[master]);
               T current = target.load(std::memory_order_relaxed);
               T combined = current;
               while (Op::combine(combined, incoming)) {
                 if (target.compare_exchange_weak(current, combined, std::memory_order_relaxed)) {
                   updated.set(master);
                   break;
                 }
                 combined = current;
               }
             });
           });
  // Mirrors have spoken; they start the next round unmarked (and empty, for sums).
  for (local_t m = graph_.masters(); m < graph_.proxies(); ++m) {
    if (!updated.test(m)) continue;
    updated.reset(m);
    if constexpr (Op::reset_mirrors) value[m] = Op::template identity<T>();
  }
  ++stats_.reduces;
  stats_.seconds += timer.elapsed();
}

template <class T>
void Substrate::broadcast(std::vector<T>& value, Bitset& updated) {
  Timer timer;
  exchange(broadcast_, false, value, updated, [&](rank_t peer) { return graph_.masters_mirrored_on(peer); },
           [&](rank_t source, std::span<const std::byte> bytes) {
             const auto mirrors = graph_.mirrors_owned_by(source);
             decode<T>(bytes, mirrors.size(), [&](std::size_t i, T incoming) {
               value[mirrors[i]] = incoming;
               updated.set(mirrors[i]);
             });
           });
  ++stats_.broadcasts;
  stats_.seconds += timer.elapsed();
}

}  // namespace courier::sync
