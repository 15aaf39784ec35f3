#pragma once
// Substrate: master/mirror synchronisation of labels over a Channel (Gluon's gather-communicate-
// scatter). reduce() combines the updated mirrors of every vertex into its master; broadcast()
// copies updated masters to their mirrors. Only labels marked in the `updated` bitset travel.
// Compute threads of the team gather per-destination buffers in parallel and scatter received
// buffers as they arrive, in any order; scatters into masters combine atomically because one
// master may hear from several ranks at once. A layer that streams (Channel::message_limit) gets
// each list cut into small messages, gathered, sent and scattered one by one.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <cstdint>
#include <span>
#include <vector>

#include "courier/core/backoff.hpp"
#include "courier/core/bitset.hpp"
#include "courier/core/error.hpp"
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
  // One message of a phase: entries [first, first + entries) of the list for `peer`.
  struct Piece {
    rank_t peer;
    std::size_t first, entries;
  };
  // How a pattern's lists are cut into messages for the channel's message_limit.
  struct Pieces {
    std::size_t value_bytes = 0;  // the label width they were cut for (0: not yet)
    bool streamed = false;        // several messages per peer, each with its first list index
    std::size_t prefix = 0;       // bytes before the wire header (the list index)
    std::size_t per_message = 0;  // list entries per message
    std::vector<Piece> sends;
    std::vector<rank_t> to, from;  // a peer once per message
  };
  struct Pattern {
    std::vector<rank_t> to, from;
    std::size_t reserved_value_bytes = 0;  // the value size the channel was sized for
    Pieces pieces;
  };
  // Reduce: send my mirrors to their owners, receive for my masters. Broadcast: the reverse.
  std::span<const local_t> reduce_send_list(rank_t peer) const { return graph_.mirrors_owned_by(peer); }
  std::span<const local_t> reduce_receive_list(rank_t peer) const { return graph_.masters_mirrored_on(peer); }

  void reserve(Pattern& pattern, bool reducing, std::size_t value_bytes);
  template <class SendList, class ReceiveList>
  const Pieces& cut(Pattern& pattern, std::size_t value_bytes, SendList send_list, ReceiveList receive_list);

  template <class T, class SendList, class ReceiveList, class Apply>
  void exchange(Pattern& pattern, bool reducing, std::vector<T>& value, const Bitset& updated, SendList send_list,
                ReceiveList receive_list, Apply apply);

  const dist::LocalGraph& graph_;
  Channel& channel_;
  ThreadTeam& team_;
  Pattern reduce_, broadcast_;
  SyncStats stats_;
};

// ---- templates ----

template <class T, class SendList, class ReceiveList, class Apply>
void Substrate::exchange(Pattern& pattern, bool reducing, std::vector<T>& value, const Bitset& updated,
                         SendList send_list, ReceiveList receive_list, Apply apply) {
  reserve(pattern, reducing, sizeof(T));
  const Pieces& pieces = cut(pattern, sizeof(T), send_list, receive_list);
  channel_.begin_phase(pieces.to, pieces.from);
  std::atomic<std::size_t> next_send{0}, received{0};
  const std::size_t expected = pieces.from.size();
  // One received message into its proxies; a streamed message starts with its first list index.
  auto scatter = [&](const Received& message) {
    std::span<const std::byte> bytes(message.bytes);
    std::uint64_t first = 0;
    if (pieces.streamed) {
      if (bytes.size() < sizeof first) throw Error("sync: a streamed message shorter than its list index");
      std::memcpy(&first, bytes.data(), sizeof first);
      bytes = bytes.subspan(sizeof first);
    }
    const auto list = receive_list(message.source);
    if (first > list.size()) throw Error("sync: a message beyond its mirror list (ranks disagree on the partition?)");
    const std::size_t entries = std::min<std::size_t>(pieces.per_message, list.size() - first);
    decode<T>(bytes, entries, [&](std::size_t i, T incoming) { apply(list[first + i], incoming); });
  };
  auto take_one = [&] {
    auto message = channel_.try_receive();
    if (!message) return false;
    scatter(*message);
    channel_.release(std::move(message->bytes));
    received.fetch_add(1, std::memory_order_acq_rel);
    return true;
  };
  team_.run([&](unsigned) {
    // Gather: each member takes whole messages until none are left; between two, a streaming
    // layer's arrivals are scattered, so they never pile up.
    for (std::size_t i = next_send.fetch_add(1); i < pieces.sends.size(); i = next_send.fetch_add(1)) {
      const Piece piece = pieces.sends[i];
      const auto list = send_list(piece.peer).subspan(piece.first, piece.entries);
      Bytes message = channel_.acquire(pieces.prefix + max_message_bytes(list.size(), sizeof(T)));
      if (pieces.streamed) {
        const std::uint64_t first = piece.first;
        message.resize(sizeof first);
        std::memcpy(message.data(), &first, sizeof first);
      }
      encode<T, local_t>(list, updated, std::span<const T>(value), message);
      channel_.send(piece.peer, std::move(message));
      if (pieces.streamed) take_one();
    }
    // Scatter: take messages as they arrive until all have been taken, backing off while none
    // is there (ranks may outnumber cores).
    Backoff backoff(kPhaseWait);
    while (received.load(std::memory_order_acquire) < expected) {
      if (take_one())
        backoff.reset();
      else
        backoff.pause();
    }
  });
  channel_.end_phase();
}

template <class SendList, class ReceiveList>
const Substrate::Pieces& Substrate::cut(Pattern& pattern, std::size_t value_bytes, SendList send_list,
                                        ReceiveList receive_list) {
  const std::size_t limit = channel_.message_limit();
  Pieces& pieces = pattern.pieces;
  if (pieces.value_bytes == value_bytes) return pieces;  // cut once per label width
  pieces = Pieces{};
  pieces.value_bytes = value_bytes;
  pieces.streamed = limit != 0;
  pieces.prefix = pieces.streamed ? sizeof(std::uint64_t) : 0;
  pieces.per_message = pieces.streamed ? entries_within(limit, value_bytes, pieces.prefix) : SIZE_MAX;
  for (rank_t peer : pattern.to) {
    const std::size_t n = send_list(peer).size();
    for (std::size_t first = 0; first < n; first += pieces.per_message) {
      pieces.sends.push_back({peer, first, std::min(pieces.per_message, n - first)});
      pieces.to.push_back(peer);
    }
  }
  for (rank_t peer : pattern.from) {
    const std::size_t n = receive_list(peer).size();
    const std::size_t messages = pieces.streamed ? (n + pieces.per_message - 1) / pieces.per_message : 1;
    pieces.from.insert(pieces.from.end(), messages, peer);
  }
  return pieces;
}

template <class Op, class T>
void Substrate::reduce(std::vector<T>& value, Bitset& updated) {
  Timer timer;
  exchange(
      reduce_, true, value, updated, [&](rank_t peer) { return reduce_send_list(peer); },
      [&](rank_t peer) { return reduce_receive_list(peer); },
      [&](local_t master, T incoming) {
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
  exchange(
      broadcast_, false, value, updated, [&](rank_t peer) { return graph_.masters_mirrored_on(peer); },
      [&](rank_t peer) { return graph_.mirrors_owned_by(peer); },
      [&](local_t mirror, T incoming) {
        value[mirror] = incoming;
        updated.set(mirror);
      });
  ++stats_.broadcasts;
  stats_.seconds += timer.elapsed();
}

}  // namespace courier::sync
