#pragma once
// Substrate: master/mirror synchronisation of labels over a Channel (Gluon's gather-communicate-
// scatter). reduce() combines the updated mirrors of every vertex into its master; broadcast()
// copies updated masters to their mirrors. Only labels marked in the `updated` bitset travel.
// Compute threads of the team gather per-destination buffers in parallel and scatter received
// buffers as they arrive, in any order; scatters into masters combine atomically because one
// master may hear from several ranks at once. A channel that streams (Channel::message_limit) gets
// each list cut into small messages, gathered, sent and scattered one by one.
//
// A phase costs what it updated, not the lists' length: while the updated set lists its words
// (few updates, core/bitset.hpp), each peer's updated entries are found from them (a range of
// mirrors directly, a sorted list of masters by search) and sent with their offsets; a phase with
// little to send or receive runs on the calling thread alone, without waking the team.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "courier/core/backoff.hpp"
#include "courier/core/bitset.hpp"
#include "courier/core/error.hpp"
#include "courier/core/thread_team.hpp"
#include "courier/core/timer.hpp"
#include "courier/dist/local_graph.hpp"
#include "courier/sync/channel.hpp"
#include "courier/sync/encoding.hpp"
#include "courier/sync/wait.hpp"

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
  // One message of a phase: entries [first, first + entries) of the list for `peer`, `bytes`
  // long, one of the `messages` this rank sends `peer` in the phase.
  struct Piece {
    rank_t peer;
    std::size_t first, entries, bytes;
    std::uint32_t messages = 1;
    // Found sparsely: the updated entries are Plan::positions[positions_begin, positions_end)
    // (indices into the peer's whole list); else they are read from the updated set.
    bool listed = false;
    std::size_t positions_begin = 0, positions_end = 0;
  };
  // What starts every message of a streaming channel: the range of the list it covers, and how
  // many messages its sender cut its list into this phase (the receiver learns it from any one).
  struct StreamHeader {
    std::uint64_t first;
    std::uint32_t entries;
    std::uint32_t messages;
  };
  // This phase's messages: cut by the updates actually sent, so a sparse phase sends one small
  // message per peer and a dense one many full ones.
  struct Plan {
    std::vector<Piece> sends;
    std::vector<rank_t> to;  // a peer once per message
    std::vector<std::uint32_t> positions;
    std::size_t bytes = 0;  // of all its messages
  };
  struct Pattern {
    std::vector<rank_t> to, from;
    std::vector<bool> send_is_range;       // by peer: its send list is consecutive proxies
    std::vector<bool> send_is_sorted;      // by peer: its send list increases
    std::size_t reserved_value_bytes = 0;  // the value size the channel was sized for
    std::size_t last_received_bytes = 0;   // in the pattern's last phase
  };
  // A phase this small (sent and, last time, received) runs on the calling thread alone.
  static constexpr std::size_t kAloneBytes = 64 * 1024;
  // Reduce: send my mirrors to their owners, receive for my masters. Broadcast: the reverse.
  std::span<const local_t> reduce_send_list(rank_t peer) const { return graph_.mirrors_owned_by(peer); }
  std::span<const local_t> reduce_receive_list(rank_t peer) const { return graph_.masters_mirrored_on(peer); }

  void reserve(Pattern& pattern, bool reducing, std::size_t value_bytes);
  template <class SendList>
  Plan cut(const Pattern& pattern, std::size_t value_bytes, const Bitset& updated, SendList send_list);
  // The positions in `list` of its updated entries, appended to `positions`, when the updated set
  // lists its words and finding them costs less than reading the whole list; else false.
  static bool find_updated(std::span<const local_t> list, bool range, bool sorted, const Bitset& updated,
                           std::vector<std::uint32_t>& positions);

  // One channel phase of a reduce or a broadcast: gather the updated entries of send_list, send,
  // and apply what arrives to receive_list.
  template <class T, class SendList, class ReceiveList, class Apply>
  void run_phase(Pattern& pattern, bool reducing, std::vector<T>& value, Bitset& updated, SendList send_list,
                 ReceiveList receive_list, Apply apply);

  const dist::LocalGraph& graph_;
  Channel& channel_;
  ThreadTeam& team_;
  Pattern reduce_, broadcast_;
  SyncStats stats_;
};

// ---- templates ----

template <class T, class SendList, class ReceiveList, class Apply>
void Substrate::run_phase(Pattern& pattern, bool reducing, std::vector<T>& value, Bitset& updated, SendList send_list,
                          ReceiveList receive_list, Apply apply) {
  reserve(pattern, reducing, sizeof(T));
  const bool streamed = channel_.message_limit() != 0;
  updated.tidy();  // one thread, before any scatter sets bits: the list is sorted for the ranges
  const Plan plan = cut(pattern, sizeof(T), updated, send_list);
  std::atomic<std::size_t> received_bytes{0};
  channel_.begin_phase(plan.to, pattern.from);
  // A peer is done when all the messages it announced have been scattered.
  std::vector<std::atomic<std::uint32_t>> got(static_cast<std::size_t>(graph_.ranks()));
  std::atomic<std::size_t> next_send{0}, peers_done{0};
  // One thread scatters (a team of one, or a phase too small to wake it): the labels and the
  // updated set are written with plain stores, no atomic read-modify-write an entry.
  const bool alone = team_.size() == 1 || (plan.bytes <= kAloneBytes && pattern.last_received_bytes <= kAloneBytes);
  auto scatter = [&](const Received& message) {
    std::span<const std::byte> bytes(message.bytes);
    const auto list = receive_list(message.source);
    StreamHeader range{0, static_cast<std::uint32_t>(list.size()), 1};
    if (streamed) {
      if (bytes.size() < sizeof range) throw Error("sync: a streamed message shorter than its header");
      std::memcpy(&range, bytes.data(), sizeof range);
      bytes = bytes.subspan(sizeof range);
      if (range.first + range.entries > list.size() || range.messages == 0)
        throw Error("sync: a message beyond its mirror list (ranks disagree on the partition?)");
    }
    received_bytes.fetch_add(message.bytes.size(), std::memory_order_relaxed);
    if (alone)
      decode<T>(bytes, range.entries,
                [&](std::size_t i, T incoming) { apply(list[range.first + i], incoming, std::true_type{}); });
    else
      decode<T>(bytes, range.entries,
                [&](std::size_t i, T incoming) { apply(list[range.first + i], incoming, std::false_type{}); });
    if (got[static_cast<std::size_t>(message.source)].fetch_add(1, std::memory_order_acq_rel) + 1 == range.messages)
      peers_done.fetch_add(1, std::memory_order_acq_rel);
  };
  auto take_one = [&] {
    auto message = channel_.try_receive();
    if (!message) return false;
    scatter(*message);
    channel_.release(std::move(message->bytes));
    return true;
  };
  auto member = [&](unsigned) {
    // Gather: each member takes whole messages until none are left; between two, a streaming
    // channel's arrivals are scattered, so they never pile up.
    for (std::size_t i = next_send.fetch_add(1); i < plan.sends.size(); i = next_send.fetch_add(1)) {
      const Piece piece = plan.sends[i];
      // Gather only what the peer has room for: its early arrivals stay bounded, and the labels
      // wait in place (not in buffers) meanwhile. Scatter while waiting, so two ranks waiting
      // for each other's room free it for each other.
      if (!channel_.may_send(piece.peer)) {
        Backoff room(channel_.wait_limits());
        while (!channel_.may_send(piece.peer)) {
          if (take_one())
            room.reset();
          else
            room.pause();
        }
      }
      const auto list = send_list(piece.peer).subspan(piece.first, piece.entries);
      Bytes message = channel_.acquire(piece.bytes);
      if (streamed) {
        const StreamHeader range{piece.first, static_cast<std::uint32_t>(piece.entries), piece.messages};
        message.resize(sizeof range);
        std::memcpy(message.data(), &range, sizeof range);
      }
      if (piece.listed) {
        const std::span<const std::uint32_t> at(plan.positions.data() + piece.positions_begin,
                                                piece.positions_end - piece.positions_begin);
        encode_at<T, local_t>(list, piece.first, at, std::span<const T>(value), message);
      } else if (pattern.send_is_range[piece.peer] && !list.empty()) {
        encode_range<T>(list.front(), list.size(), updated, std::span<const T>(value), message);
      } else {
        encode<T, local_t>(list, updated, std::span<const T>(value), message);
      }
      channel_.send(piece.peer, std::move(message));
      if (streamed) take_one();
    }
    // Scatter: take messages as they arrive until every peer is done, backing off while none
    // is there (ranks may outnumber cores).
    Backoff backoff(channel_.wait_limits());
    while (peers_done.load(std::memory_order_acquire) < pattern.from.size()) {
      if (take_one())
        backoff.reset();
      else
        backoff.pause();
    }
  };
  if (alone)
    member(0);  // waking the team would cost more than the phase
  else
    team_.run(member);
  channel_.end_phase();
  pattern.last_received_bytes = received_bytes.load(std::memory_order_relaxed);
}

template <class SendList>
Substrate::Plan Substrate::cut(const Pattern& pattern, std::size_t value_bytes, const Bitset& updated,
                               SendList send_list) {
  const std::size_t limit = channel_.message_limit();
  Plan plan;
  // A message of n entries, k of them updated, as encode() will make it (with a stream header).
  auto bytes_of = [&](std::size_t n, std::size_t k) {
    const std::size_t metadata = k == 0 || k == n ? 0 : std::min((n + 63) / 64 * 8, k * sizeof(std::uint32_t));
    return (limit == 0 ? 0 : sizeof(StreamHeader)) + sizeof(MessageHeader) + metadata + k * value_bytes;
  };
  // Each peer's pieces, dealt out a piece per peer in turn. A channel may give a peer room for only
  // a few messages (lci where ranks share cores: 2); in peer order a sender would then wait on
  // one peer's room for almost every message while its other peers got nothing.
  std::vector<std::vector<Piece>> by_peer;
  by_peer.reserve(pattern.to.size());
  for (rank_t peer : pattern.to) {
    std::vector<Piece>& pieces = by_peer.emplace_back();
    const auto list = send_list(peer);
    const bool range = pattern.send_is_range[peer];
    const std::size_t found = plan.positions.size();
    if (find_updated(list, range, pattern.send_is_sorted[peer], updated, plan.positions)) {
      // Sparse: the updated entries are known; a message takes them while it fits, whatever
      // stretch of the list it ends up covering (an offset each bounds its metadata).
      const std::span<const std::uint32_t> at(plan.positions.data() + found, plan.positions.size() - found);
      auto bound = [&](std::size_t k) {
        return sizeof(StreamHeader) + sizeof(MessageHeader) + k * (sizeof(std::uint32_t) + value_bytes);
      };
      std::size_t first = 0, taken = 0;
      for (std::size_t j = 0; j < at.size(); ++j) {
        if (limit != 0 && j > taken && bound(j + 1 - taken) > limit) {
          pieces.push_back(
              {peer, first, at[j] - first, bytes_of(at[j] - first, j - taken), 1, true, found + taken, found + j});
          first = at[j];
          taken = j;
        }
      }
      pieces.push_back({peer, first, list.size() - first, bytes_of(list.size() - first, at.size() - taken), 1, true,
                        found + taken, found + at.size()});
    } else if (limit == 0) {  // one message per peer, whatever its size
      pieces.push_back({peer, 0, list.size(), max_message_bytes(list.size(), value_bytes)});
    } else {
      // Greedy: a message takes list entries while its encoding (as encode() will choose it) fits.
      // A range's updates are counted a word at a time: while the next 64 entries fit, they are
      // taken at once (a message's size only grows with its entries and updates, so no entry
      // among them would have ended it).
      std::size_t first = 0, k = 0;
      if (!range) count_scanned_words((list.size() + 63) / 64);  // a test an entry
      for (std::size_t i = 0; i < list.size();) {
        if (range) {
          const std::size_t step = std::min<std::size_t>(64, list.size() - i);
          const std::size_t set = updated.count(list[i], list[i] + step);
          if (bytes_of(i + step - first, k + set) <= limit) {
            i += step;
            k += set;
            continue;
          }
        }
        const std::size_t bit = updated.test(list[i]) ? 1 : 0;
        if (i > first && bytes_of(i + 1 - first, k + bit) > limit) {
          pieces.push_back({peer, first, i - first, bytes_of(i - first, k)});
          first = i;
          k = 0;
        }
        k += bit;
        ++i;
      }
      pieces.push_back({peer, first, list.size() - first, bytes_of(list.size() - first, k)});
    }
    for (Piece& piece : pieces) {
      piece.messages = static_cast<std::uint32_t>(pieces.size());
      plan.bytes += piece.bytes;
    }
  }
  std::size_t turns = 0;
  for (const std::vector<Piece>& pieces : by_peer) turns = std::max(turns, pieces.size());
  for (std::size_t turn = 0; turn < turns; ++turn) {
    for (const std::vector<Piece>& pieces : by_peer) {
      if (turn >= pieces.size()) continue;
      plan.sends.push_back(pieces[turn]);
      plan.to.push_back(pieces[turn].peer);
    }
  }
  return plan;
}

template <class Op, class T>
void Substrate::reduce(std::vector<T>& value, Bitset& updated) {
  Timer timer;
  run_phase(
      reduce_, true, value, updated, [&](rank_t peer) { return reduce_send_list(peer); },
      [&](rank_t peer) { return reduce_receive_list(peer); },
      [&](local_t master, T incoming, auto alone) {
        if constexpr (alone) {
          if (Op::combine(value[master], incoming)) updated.set_exclusive(master);
          return;
        }
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
  // Mirrors have spoken; they start the next round unmarked (and empty, for sums). The scatter
  // listed new words: sorted again, the mirrors' range costs its own updates.
  updated.tidy();
  updated.drain(graph_.masters(), graph_.proxies(), [&](std::size_t m) {
    if constexpr (Op::reset_mirrors) value[m] = Op::template identity<T>();
  });
  ++stats_.reduces;
  stats_.seconds += timer.elapsed();
}

template <class T>
void Substrate::broadcast(std::vector<T>& value, Bitset& updated) {
  Timer timer;
  run_phase(
      broadcast_, false, value, updated, [&](rank_t peer) { return graph_.masters_mirrored_on(peer); },
      [&](rank_t peer) { return graph_.mirrors_owned_by(peer); },
      [&](local_t mirror, T incoming, auto alone) {
        value[mirror] = incoming;
        if constexpr (alone)
          updated.set_exclusive(mirror);
        else
          updated.set(mirror);
      });
  ++stats_.broadcasts;
  stats_.seconds += timer.elapsed();
}

}  // namespace courier::sync
