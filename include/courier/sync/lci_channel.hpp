#pragma once
// LciChannel: the `lci` layer of sync/, on Courier's own runtime (paper 000, III-D). Compute
// threads post their gathered buffers straight to a queue endpoint (small ones eager, large ones
// by rendezvous, without a communication thread of the layer's own: the runtime's progress server
// moves them) and take received buffers in first-packet order. Received messages land in
// recycled buffers: the runtime's allocator hands out vectors from this channel's pool, so the
// working set of buffers stays small (paper 000, Fig. 5).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/sync/channel.hpp"

namespace courier::sync {

class LciChannel final : public Channel {
 public:
  // Creates two endpoints on `runtime` (messages and collectives): construct LciChannels in the
  // same order on every rank. The runtime must outlive the channel.
  // `stream`: cut every peer's share into eager-sized messages (message_limit); false sends one
  // message per peer and phase, as the MPI layers do.
  explicit LciChannel(comm::Runtime& runtime, bool stream = true);
  ~LciChannel() override;
  // The runtime options this layer is meant to run on: a lazy progress server, since the
  // channel's waiting threads drive progress themselves.
  static comm::RuntimeOptions runtime_options();

  rank_t rank() const override;
  rank_t ranks() const override;
  std::string name() const override { return "lci"; }
  void reserve(std::span<const std::size_t>, std::span<const std::size_t>) override {}
  // Eager-sized messages: each is copied into the runtime's packets at once and its buffer
  // recycled, so the layer's own buffers are a few per thread (paper 000, Fig. 5).
  std::size_t message_limit() const override;
  void begin_phase(std::span<const rank_t> to, std::span<const rank_t> from) override;
  Bytes acquire(std::size_t bytes) override;
  void send(rank_t peer, Bytes message) override;
  std::optional<Received> try_receive() override;
  void release(Bytes buffer) override;
  void end_phase() override;
  std::uint64_t sum_all(std::uint64_t value) override;
  double sum_all(double value) override;
  double max_all(double value) override;
  ChannelStats stats() const override;

 private:
  class Pool;
  class PoolAllocator;

  // Posts until the runtime takes it, letting progress run in between.
  void post(comm::Endpoint& endpoint, rank_t peer, comm::tag_t tag, std::span<const std::byte> data, void* context);
  // Handles one completion of the message endpoint; a received message of a later phase is kept.
  std::optional<Received> take(const comm::Completion& completion);
  // All ranks' contributions to collective `sequence`, in rank order.
  std::vector<std::uint64_t> all_gather(std::uint64_t bits);

  comm::Runtime& runtime_;
  const bool stream_;
  std::unique_ptr<Pool> pool_;
  std::unique_ptr<PoolAllocator> allocator_;
  comm::Endpoint& messages_;
  comm::Endpoint& collectives_;

  std::uint64_t phase_ = 0;
  mutable std::mutex mutex_;  // guards the members below
  std::multimap<std::uint64_t, Received> early_;              // by phase
  std::unordered_map<const void*, Bytes> in_flight_;          // rendezvous sends, by data pointer
  std::uint64_t collective_ = 0;
  std::multimap<std::uint64_t, std::pair<rank_t, std::uint64_t>> early_values_;  // by sequence
  std::uint64_t messages_sent_ = 0, bytes_sent_ = 0, phases_ = 0;
};

}  // namespace courier::sync
