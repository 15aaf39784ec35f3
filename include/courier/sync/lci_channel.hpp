#pragma once
// LciChannel: the `lci` channel of sync/, on Courier's own runtime (paper 000, III-D). Compute
// threads post their gathered buffers straight to a queue endpoint (small ones eager, large ones
// by rendezvous, without a communication thread of the channel's own: the runtime's progress server
// moves them) and take received buffers in first-packet order. Received messages land in
// recycled buffers: the runtime's allocator hands out vectors from this channel's pool, so the
// working set of buffers stays small (paper 000, Fig. 5).
//
// Receive-side flow control: a rank grants each peer room for its share of `window` messages; a
// sender spends one per message and the receiver gives them back (in batches, on a credit
// endpoint) as its threads take the messages. So a rank still computing when its peers' shares for
// the next phase are ready holds about `window` of those messages, not all of them: the rest wait
// as labels at the senders, which gather them only when room comes back (Channel::may_send).
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "courier/comm/buffer_pool.hpp"
#include "courier/comm/runtime.hpp"
#include "courier/sync/channel.hpp"
#include "courier/sync/progress_mode.hpp"

namespace courier::sync {

struct LciOptions {
  // Cut every peer's share into messages of at most message_bytes (message_limit); false sends
  // one message per peer and phase, as the MPI channels do.
  bool stream = true;
  // The largest streamed message; 0: the runtime's eager limit (each message copied into packets
  // at once). Larger ones go by rendezvous: no copy through packets, one round trip each.
  std::size_t message_bytes = 0;
  // Messages sent to this rank and not yet taken by it, from all peers together: each peer has
  // room for window / (ranks - 1), at least 2 (one taken while the next travels). 0 turns flow
  // control off (every arrival is copied into a channel buffer at once). 12 eager messages are
  // about 100 KB whatever the rank count.
  std::size_t window = 12;
  // How its waiting threads back off between looks (Channel::wait_limits).
  Backoff::Limits wait = kPhaseWait;
};

class LciChannel final : public Channel {
 public:
  // Creates three endpoints on `runtime` (messages, collectives, credits): construct LciChannels
  // in the same order on every rank. The runtime must outlive the channel.
  explicit LciChannel(comm::Runtime& runtime, LciOptions options = {});
  ~LciChannel() override;
  // The runtime options this channel is meant to run on: a progress server as `mode` chooses for
  // `budget` (progress_mode.hpp), and a lazy one, since the channel's waiting threads drive
  // progress themselves; without it they are the only ones. Every place that makes the channel's
  // runtime goes through here, so all choose alike.
  static comm::RuntimeOptions runtime_options(ProgressMode mode, const ProgressBudget& budget);
  // The channel's options for `budget`: eager-sized messages (the smallest buffers), except where
  // ranks outnumber the hardware threads. There every message costs hand-offs between processes
  // that take turns on a core, so fewer, larger ones (16 KiB by rendezvous, window 4) win:
  // 3-7% on 4 ranks on 2 cores, for about 0.2 MB of buffers instead of 0.1 MB. 64 KiB ones were
  // 3-4% faster still but held 0.6-0.9 MB, as much as a fifth of mpi-rma's windows there.
  static LciOptions options_for(const ProgressBudget& budget);

  rank_t rank() const override;
  rank_t ranks() const override;
  std::string name() const override { return "lci"; }
  void reserve(std::span<const std::size_t>, std::span<const std::size_t>) override {}
  // Eager-sized messages (by default): each is copied into the runtime's packets at once and its
  // buffer recycled, so the channel's own buffers are a few per thread (paper 000, Fig. 5).
  std::size_t message_limit() const override;
  void begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) override;
  Bytes acquire(std::size_t bytes) override;
  bool may_send(rank_t peer) override;
  void send(rank_t peer, Bytes message) override;
  std::optional<Received> try_receive() override;
  void release(Bytes buffer) override;
  void end_phase() override;
  std::uint64_t sum_all(std::uint64_t value) override;
  double sum_all(double value) override;
  double max_all(double value) override;
  ChannelStats stats() const override;
  Backoff::Limits wait_limits() const override { return wait_; }
  void restart_buffer_peak() override;

 private:
  struct Room;
  static comm::EndpointOptions credit_endpoint(std::shared_ptr<Room> room);

  // Posts until the runtime takes it, letting progress run in between.
  void post(comm::Endpoint& endpoint, rank_t peer, comm::tag_t tag, std::span<const std::byte> data, void* context);
  // Waits until every rendezvous send has finished (their buffers may then go).
  void finish_sends();
  // Without a progress server, before a thread stops progressing (the end of a phase or a
  // collective): what this rank owes its peers is on its way, not waiting for its next progress.
  void hand_over();
  // Handles one completion of the message endpoint; a received message of a later phase is kept.
  std::optional<Received> take(const comm::Completion& completion);
  // A message from `source` was taken: its room goes back to the sender, a batch at a time.
  void give_room(rank_t source);
  // All ranks' contributions to the next collective, in rank order: one message to every peer,
  // for up to tree_collective_ranks ranks.
  std::vector<std::uint64_t> all_gather(std::uint64_t bits);
  // Above tree_collective_ranks ranks: the next collective's result by a binomial tree, 2 (ranks -
  // 1) messages in all instead of ranks x (ranks - 1), and no rank talks to every other.
  static constexpr rank_t tree_collective_ranks = 32;
  bool collectives_by_tree() const;
  std::uint64_t reduce_tree(std::uint64_t bits, std::uint64_t (*combine)(std::uint64_t, std::uint64_t));
  // `count` values of collective message `tag`, from early_values_ first, then as they arrive.
  void wait_values(std::uint64_t tag, std::size_t count, const std::function<void(rank_t, std::uint64_t)>& use);
  void post_value(rank_t peer, std::uint64_t tag, std::uint64_t bits);

  comm::Runtime& runtime_;
  const bool stream_;
  const std::size_t message_bytes_;
  const std::size_t window_;        // per peer; 0: no flow control
  const std::uint32_t room_batch_;  // room given back per credit message
  const Backoff::Limits wait_;
  std::unique_ptr<comm::BufferPool> pool_;
  std::unique_ptr<comm::PooledAllocator> allocator_;
  comm::Endpoint& messages_;
  comm::Endpoint& collectives_;
  // Shared with the credit endpoint's handler, which the runtime keeps after this channel goes.
  std::shared_ptr<Room> room_;
  comm::Endpoint& credits_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> owed_;  // taken, room not given back yet (by peer)

  std::atomic<std::uint64_t> phase_{0};  // written by begin_phase only, between phases
  std::atomic<std::uint64_t> messages_sent_{0}, bytes_sent_{0}, phases_{0};
  std::atomic<std::size_t> early_count_{0};  // early_.size(), read without the lock
  mutable std::mutex mutex_;  // guards the members below
  std::multimap<std::uint64_t, Received> early_;              // by phase
  std::unordered_map<const void*, Bytes> in_flight_;          // rendezvous sends, by data pointer
  std::uint64_t collective_ = 0;
  std::multimap<std::uint64_t, std::pair<rank_t, std::uint64_t>> early_values_;  // by sequence
};

}  // namespace courier::sync
