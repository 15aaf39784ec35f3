#pragma once
// detail::Core: the untyped machinery under Mailbox<Message> -- per-next-hop batches of records,
// exchanges, routing tables, forwarding, broadcast trees and termination. Mailbox<Message> only
// turns messages into payload bytes and back.
//
// A record is a 32-bit header -- the destination rank, or for a broadcast its origin rank with
// the top bit set -- then, for variable-length messages, a 32-bit payload size, then the payload.
// A batch is a run of records for one next hop, sent as one comm message.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/mailbox/batch_buffer.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"
#include "courier/mailbox/topology.hpp"

namespace courier::mailbox::detail {

class Termination;

class Core {
 public:
  // Runs the receive callback on one record's payload.
  using Deliver = void (*)(void* owner, const std::byte* payload, std::size_t bytes);

  // fixed_payload: every payload has exactly this many bytes; 0: payloads carry their size.
  // Creates one endpoint on `runtime` (so build mailboxes in the same order on every rank).
  Core(comm::Runtime& runtime, const Config& config, std::size_t fixed_payload, Deliver deliver, void* owner);
  ~Core();
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  rank_t rank() const { return topology_.rank(); }
  rank_t size() const { return topology_.size(); }
  const Topology& topology() const { return topology_; }
  const Config& config() const { return config_; }

  // A record of `bytes` payload bytes for `dest`; N is the payload size when known at compile time.
  template <std::size_t N = 0>
  void send(rank_t dest, const std::byte* payload, std::size_t bytes) {
    if (static_cast<std::uint32_t>(dest) >= static_cast<std::uint32_t>(size())) bad_destination(dest);
    if constexpr (N == 0) check_payload(bytes);
    const rank_t hop = next_hop_[static_cast<std::size_t>(dest)];
    std::byte* at = append(hop, static_cast<std::uint32_t>(dest), bytes);
    std::memcpy(at, payload, N == 0 ? bytes : N);
    if (buffered_ >= config_.capacity_bytes && !busy_) exchange();
  }

  void bcast(const std::byte* payload, std::size_t bytes);

  bool test_empty();
  void wait_empty();
  Stats stats() const;

 private:
  static constexpr std::uint32_t bcast_bit = 1u << 31;

  // Adds a record header for `hop` and returns where its payload goes.
  std::byte* append(rank_t hop, std::uint32_t header, std::size_t payload_bytes) {
    const std::size_t record = sizeof(std::uint32_t) + (fixed_payload_ == 0 ? sizeof(std::uint32_t) : 0) + payload_bytes;
    BatchBuffer& batch = batches_[static_cast<std::size_t>(hop)];
    if (batch.empty()) pending_.push_back(hop);
    std::byte* at = batch.extend(record);
    std::memcpy(at, &header, sizeof header);
    at += sizeof header;
    if (fixed_payload_ == 0) {
      const auto size32 = static_cast<std::uint32_t>(payload_bytes);
      std::memcpy(at, &size32, sizeof size32);
      at += sizeof size32;
    }
    const bool remote = hop_remote_[static_cast<std::size_t>(hop)] != 0;
    messages_[remote] += 1;
    bytes_[remote] += record;
    buffered_ += record;
    if (buffered_ > peak_buffered_) peak_buffered_ = buffered_;
    return at;
  }

  [[noreturn]] void bad_destination(rank_t dest) const;
  void check_payload(std::size_t bytes) const;
  void exchange();
  bool step(bool& progressed);         // one round of test_empty; true: the epoch is over
  bool flush();                        // true if every batch was handed over
  bool send_batch(rank_t hop);         // false: the transport answered retry
  std::size_t drain(std::size_t limit);
  void handle_batch(const std::byte* data, std::size_t bytes);
  void handle_bcast(rank_t origin, const std::byte* payload, std::size_t bytes);
  void progress_if_needed();
  BatchBuffer take_spare();

  comm::Runtime& runtime_;
  comm::Endpoint& endpoint_;
  Config config_;
  Topology topology_;
  std::size_t fixed_payload_;
  Deliver deliver_;
  void* owner_;

  std::vector<rank_t> next_hop_;                     // [destination]
  std::vector<std::uint8_t> hop_remote_;             // [rank]: on another node
  std::vector<std::vector<rank_t>> bcast_children_;  // [origin]: where this rank passes a broadcast on

  std::vector<BatchBuffer> batches_;  // [next hop]
  std::vector<rank_t> pending_;       // next hops whose batch holds records
  std::vector<BatchBuffer> spares_;   // batches back from rendezvous sends, for reuse
  std::vector<BatchBuffer*> in_flight_;
  std::size_t buffered_ = 0;
  bool busy_ = false;  // inside an exchange or test_empty: sends only append

  std::uint64_t messages_[2] = {0, 0};  // [remote]
  std::uint64_t bytes_[2] = {0, 0};
  std::uint64_t peak_buffered_ = 0;
  Stats counters_;  // the rest of the statistics

  std::unique_ptr<Termination> termination_;
};

}  // namespace courier::mailbox::detail
