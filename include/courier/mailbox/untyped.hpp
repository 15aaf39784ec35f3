#pragma once
// detail::Untyped: the untyped machinery under Mailbox<Message> -- per-next-hop batches of records,
// exchanges, routing tables, forwarding, broadcast trees and termination. Mailbox<Message> only
// turns messages into payload bytes and back.
//
// Each next hop has two batches, each sent as one comm message. The direct batch holds messages
// whose next hop is their destination (all of them under no_route): only payloads, each preceded
// by its 32-bit size for variable-length messages. The routed batch holds records that still
// travel on or are broadcasts: a 32-bit header -- the destination rank, or for a broadcast its
// origin rank with the top bit set -- then the size if variable, then the payload.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "courier/comm/runtime.hpp"
#include "courier/mailbox/batch_buffer.hpp"
#include "courier/mailbox/config.hpp"
#include "courier/mailbox/stats.hpp"
#include "courier/mailbox/topology.hpp"

namespace courier::mailbox::detail {

class Flow;
class Termination;

class Untyped {
 public:
  // Runs the receive callback on one payload.
  using Deliver = void (*)(void* owner, const std::byte* payload, std::size_t bytes);
  // Runs the receive callback on every payload of a direct batch; returns how many there were.
  using DeliverRun = std::size_t (*)(void* owner, const std::byte* data, std::size_t bytes);

  // fixed_payload: every payload has exactly this many bytes; 0: payloads carry their size.
  // Creates one endpoint on `runtime` (so build mailboxes in the same order on every rank).
  Untyped(comm::Runtime& runtime, const Config& config, std::size_t fixed_payload, Deliver deliver,
          DeliverRun deliver_run, void* owner);
  ~Untyped();
  Untyped(const Untyped&) = delete;
  Untyped& operator=(const Untyped&) = delete;

  rank_t rank() const { return topology_.rank(); }
  rank_t ranks() const { return topology_.ranks(); }
  const Topology& topology() const { return topology_; }
  const Config& config() const { return config_; }

  // A record of `bytes` payload bytes for `dest`; N is the payload size when known at compile time.
  template <std::size_t N = 0>
  void send(rank_t dest, const std::byte* payload, std::size_t bytes) {
    if (static_cast<std::uint32_t>(dest) >= ranks_) bad_destination(dest);
    if constexpr (N > 0) {
      // Fixed-size payloads while the destination's window lasts (it has one only when it is its
      // own next hop): one bounds check and a copy, no routing lookup; the counting (bytes,
      // records, capacity) happens when the window ends.
      Window& window = windows_[static_cast<std::size_t>(dest)];
      if (static_cast<std::size_t>(window.end - window.cursor) >= N) [[likely]] {
        std::memcpy(window.cursor, payload, N);
        window.cursor += N;
        return;
      }
    }
    send_counted<N>(dest, payload, bytes);
  }

  // bytes / N payloads of N bytes each, back to back, for `dest` (a thread's staged records, see
  // stage.hpp): appended with one copy when `dest` is its own next hop.
  template <std::size_t N>
  void send_run(rank_t dest, const std::byte* data, std::size_t bytes) {
    static_assert(N > 0);
    if (static_cast<std::uint32_t>(dest) >= ranks_) bad_destination(dest);
    const auto d = static_cast<std::size_t>(dest);
    if (next_hop_[d] != dest || busy_) {
      for (std::size_t at = 0; at < bytes; at += N) send<N>(dest, data + at, N);
      return;
    }
    if (!listed_[d]) list(dest);
    settle(dest);
    std::memcpy(direct_[d].extend(bytes), data, bytes);
    buffered_ += bytes;
    exchange_if_full();
  }

  void bcast(const std::byte* payload, std::size_t bytes);
  // Throws InputError: `dest` is not a rank.
  [[noreturn]] void bad_destination(rank_t dest) const;

  bool test_empty();
  void wait_empty();
  // One test_empty step of a mailbox that several threads use (SharedUse): may_idle false keeps
  // this rank from counting as idle (another of its threads is still working); ran_callbacks
  // says whether the step ran any. Throws Cancelled as test_empty does.
  bool shared_step(bool may_idle, bool& ran_callbacks);
  // Messages whose callbacks have run so far.
  std::uint64_t delivered() const { return counters_.messages_delivered; }
  bool stopping();
  // A batch whose records do not fit its size: ranks disagree on the message type.
  Stats stats() const;

 private:
  static constexpr std::uint32_t bcast_bit = 1u << 31;

  // Adds a record to `hop`'s routed batch and returns where its payload goes. N: the payload
  // size when every payload has it (fixed_payload_), known at compile time; 0: known at run time.
  template <std::size_t N = 0>
  std::byte* append(rank_t hop, std::uint32_t header, std::size_t payload_bytes) {
    return add_record<N>(routed_[static_cast<std::size_t>(hop)], hop, &header, payload_bytes);
  }
  // The same in `hop`'s direct batch (hop is the destination): no header.
  template <std::size_t N = 0>
  std::byte* append_direct(rank_t hop, std::size_t payload_bytes) {
    return add_record<N>(direct_[static_cast<std::size_t>(hop)], hop, nullptr, payload_bytes);
  }
  template <std::size_t N>
  std::byte* add_record(BatchBuffer& batch, rank_t hop, const std::uint32_t* header, std::size_t payload_bytes) {
    const bool sized = N == 0 && fixed_payload_ == 0;  // the record carries its payload size
    const std::size_t record =
        (header != nullptr ? sizeof *header : 0) + (sized ? sizeof(std::uint32_t) : 0) + (N == 0 ? payload_bytes : N);
    if (!listed_[static_cast<std::size_t>(hop)]) list(hop);
    if (header == nullptr) settle(hop);
    std::byte* at = batch.extend_record(record);
    buffered_ += record;
    if (header != nullptr) {
      std::memcpy(at, header, sizeof *header);
      at += sizeof *header;
    }
    if (sized) {
      const auto size32 = static_cast<std::uint32_t>(payload_bytes);
      std::memcpy(at, &size32, sizeof size32);
      at += sizeof size32;
    }
    return at;
  }
  void list(rank_t hop) {
    listed_[static_cast<std::size_t>(hop)] = 1;
    pending_.push_back(hop);
  }

  // Every send that the window fast path does not take: routing, variable sizes, and the append
  // that ends a window and opens the next. Out of line, so that the fast path stays small.
  template <std::size_t N>
  [[gnu::noinline]] void send_counted(rank_t dest, const std::byte* payload, std::size_t bytes) {
    if constexpr (N == 0) check_payload(bytes);
    const rank_t hop = next_hop_[static_cast<std::size_t>(dest)];
    if constexpr (N > 0) {
      if (hop == dest) {
        std::memcpy(append_direct_counted(hop), payload, N);
        if (busy_) {
          relieve_if_full();
        } else if (buffered_ >= config_.capacity_bytes) {
          exchange();
        }
        return;
      }
    }
    std::byte* at =
        hop == dest ? append_direct<N>(hop, bytes) : append<N>(hop, static_cast<std::uint32_t>(dest), bytes);
    if (N > 0 || bytes > 0) std::memcpy(at, payload, N == 0 ? bytes : N);  // an empty payload may be null
    exchange_if_full();
  }

  // Windows: fast appends of fixed-size payloads to a direct batch, into room reserved after its
  // end (BatchBuffer::reserve_tail), committed and counted when the window ends (settle).
  // buffered_ counts the bytes before each window, window_bytes_ the sum of the open windows'
  // sizes, and buffered_ + window_bytes_ stays below the capacity, so no fast append can fill
  // the buffers.
  struct Window {
    std::byte* cursor = nullptr;  // where the next payload goes
    std::byte* end = nullptr;     // the end of the reserved room; null: no window
  };
  // The slow path of a direct fixed-size append: counts the hop's window, appends one record and
  // opens a new window for the hop.
  std::byte* append_direct_counted(rank_t hop);
  // Commits and counts the bytes appended in `hop`'s window and closes it.
  void settle(rank_t hop);
  // Closes every window: buffered_ is exact afterwards (exchanges and test_empty start here).
  void close_windows();
  // After a counted append: an exchange once the buffered bytes reach the capacity; inside one (a
  // callback sending), relief instead, so that one callback's many sends cannot pile up either.
  void exchange_if_full() {
    if (busy_) {
      relieve_if_full();
      return;
    }
    if (buffered_ + window_bytes_ < config_.capacity_bytes) return;
    close_windows();
    if (buffered_ >= config_.capacity_bytes) exchange();
  }
  // How many records `batch` holds; direct: it is a direct batch.
  std::size_t records_in(const BatchBuffer& batch, bool direct) const {
    return direct && fixed_payload_ > 0 ? batch.size() / fixed_payload_ : batch.records();
  }
  void check_payload(std::size_t bytes) const;
  void exchange();
  // One round of test_empty; true: the epoch is over. may_idle false: never counted as idle.
  bool step(bool& progressed, bool may_idle = true);
  bool flush();                 // true if every batch was handed over
  bool send_hop(rank_t hop);    // false: the transport refused a batch (it stays)
  bool send_batch(rank_t hop, BatchBuffer& batch, comm::tag_t tag);
  void handle_own(rank_t hop);  // this rank's own batches, handled in place
  std::size_t drain(std::size_t limit);
  void take(const comm::Completion& c);                   // one completion; data batches join the backlog for drain
  void handle_data(const comm::Completion& batch);        // a received batch, then released
  void handle_batch(const std::byte* data, std::size_t bytes);
  template <bool Sized>
  void handle_records(const std::byte* data, std::size_t bytes);
  void handle_bcast(rank_t origin, const std::byte* payload, std::size_t bytes);
  std::size_t deliver_run(const std::byte* data, std::size_t bytes);  // in slices, relieving between
  void relieve_if_full() {
    if (buffered_ >= relieve_at_) [[unlikely]]
      relieve();
  }
  void relieve();  // while handling: remote batches to the transport, nothing handled
  void progress_if_needed();
  std::unique_ptr<BatchBuffer> take_spare();  // an empty batch, with the allocation of an earlier one if any
  void keep_spare(std::unique_ptr<BatchBuffer> batch);
  void finish_send(BatchBuffer* batch);  // a rendezvous batch was taken: back to the spares

  comm::Runtime& runtime_;
  comm::Endpoint& endpoint_;
  Config config_;
  Topology topology_;
  std::size_t fixed_payload_;
  std::uint32_t ranks_;  // size(), where the fast path reads it
  Deliver deliver_;
  DeliverRun deliver_run_;
  void* owner_;

  std::vector<rank_t> next_hop_;                     // [destination]
  std::vector<std::uint8_t> hop_remote_;             // [rank]: on another node (for statistics)
  std::vector<std::vector<rank_t>> bcast_children_;  // [origin]: where this rank passes a broadcast on

  std::vector<Window> windows_;                          // [next hop]: the open window into direct_[hop], if any
  std::vector<BatchBuffer> direct_;                      // [next hop]: records for the hop itself
  std::vector<BatchBuffer> routed_;                      // [next hop]: records it forwards, and broadcasts
  std::vector<std::uint8_t> listed_;                     // [next hop]: in pending_
  std::vector<rank_t> pending_;                          // next hops whose batches may hold records
  std::vector<rank_t> flushing_;                         // flush(): the hops being sent
  std::vector<rank_t> refused_;                          // flush(): the hops the transport refused
  std::vector<std::unique_ptr<BatchBuffer>> spares_;     // emptied batches, for reuse
  std::vector<std::unique_ptr<BatchBuffer>> in_flight_;  // rendezvous batches the transport still reads
  std::size_t in_flight_bytes_ = 0;
  std::deque<comm::Completion> backlog_;   // batches taken in and not handled yet, in arrival order
  std::size_t backlog_bytes_ = 0;          // their sizes, summed
  std::size_t buffered_ = 0;               // see Window
  std::size_t window_bytes_ = 0;           // bytes in open windows, not yet in buffered_ (see settle)
  std::size_t relieve_at_ = SIZE_MAX;      // buffered bytes at which handling stops to send (relieve)
  bool busy_ = false;                      // inside an exchange or test_empty: sends only append

  Stats counters_;  // peak_buffered_bytes is updated before every flush: buffered_ only grows between

  std::unique_ptr<Termination> termination_;
  std::unique_ptr<Flow> flow_;  // back pressure
};

}  // namespace courier::mailbox::detail
