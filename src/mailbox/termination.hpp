#pragma once
// Termination detection for wait_empty / test_empty: Mattern's counting in waves, coordinated by
// rank 0 over the mailbox's own endpoint, so nothing ever blocks.
//
// Every rank counts the data batches it handed to the transport (sent) and the batches it has
// finished handling (received). Rank 0, once idle, opens a wave: it probes every rank, and each
// rank answers with its two counters only when it is idle too -- inside test_empty/wait_empty
// with nothing buffered, in a step that ran no callback (a callback may have given a program
// that polls test_empty work of its own, through a message to its own rank that no counter
// sees). When two consecutive waves see the same sums and sent == received, no batch was in
// flight or being handled between them (the four-counter argument: the received sum of the first
// wave equals the sent sum of the second), and rank 0 tells every rank that the epoch is over.
// Counters only grow, so a mailbox can be emptied any number of times (epochs); control messages
// carry their epoch, so a probe of the next epoch that overtakes the "done" of this one waits
// for it.
//
// Cancellation (courier/core/cancel.hpp) rides on the same messages: a rank that was asked to stop
// says so in its reports, rank 0 passes it on in its probes, and every rank that knows stops
// running callbacks, so the work drains and the counting ends the epoch soon. The "done" says
// whether the epoch ended cancelled; all ranks read the same "done", so all of them throw
// Cancelled at the end of the same epoch, or none does. A rank that learns of a request only
// after its last report of an epoch handled that epoch in full, and carries the request into the
// next one.
#include <cstdint>
#include <optional>

#include "courier/comm/endpoint.hpp"
#include "outbox.hpp"

namespace courier::mailbox::detail {

class Termination {
 public:
  Termination(comm::Endpoint& endpoint, int rank, int size);

  void count_sent() { ++sent_; }
  void count_received() { ++received_; }
  static bool is_control(comm::tag_t tag) { return tag >= probe_tag && tag <= done_tag; }

  // A control message arrived (the caller releases it).
  void on_message(const comm::Completion& message);
  // This rank is idle: nothing buffered and no work of its own. Answers a probe, or on rank 0
  // opens a wave. Returns true if it did something.
  bool on_idle();
  // True once (per epoch) when the current epoch is over; the next epoch starts.
  bool finished();
  // Sends control messages the transport refused earlier; false while some are still waiting.
  bool flush_outbox() { return outbox_.flush(); }

  std::uint64_t waves() const { return waves_; }

  // This rank was asked to stop; from now on it says so in every control message it sends.
  void request_cancel() { cancelling_ = true; }
  // Some rank asked to stop (as far as this rank knows): callbacks are skipped.
  bool cancelling() const { return cancelling_; }
  // The epoch that finished() last ended was cancelled (the same answer on every rank).
  bool cancelled() const { return cancelled_; }

 private:
  static constexpr comm::tag_t probe_tag = 2, report_tag = 3, done_tag = 4;  // data batches use 1 and 5
  struct Message {
    std::uint64_t epoch = 0, wave = 0, sent = 0, received = 0, cancel = 0;
  };
  void post(int dest, comm::tag_t tag, const Message& message) { outbox_.post(dest, tag, message); }
  void add_report(const Message& report);
  void close_wave();

  int rank_, size_;
  std::uint64_t sent_ = 0, received_ = 0;
  std::uint64_t epoch_ = 0;        // epochs finished on this rank
  std::uint64_t done_through_ = 0; // epochs rank 0 has declared over
  std::optional<Message> probe_;   // a probe not answered yet
  Outbox outbox_;
  std::uint64_t waves_ = 0;        // waves this rank took part in
  bool cancelling_ = false;
  bool cancelled_ = false;       // the last finished epoch ended cancelled
  bool done_cancelled_ = false;  // the "done" that ends the current epoch says cancelled

  // Rank 0 only: the open wave and the sums of the last closed one.
  bool wave_open_ = false;
  std::uint64_t wave_ = 0;
  int reports_ = 0;
  std::uint64_t wave_sent_ = 0, wave_received_ = 0;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> last_wave_;
};

}  // namespace courier::mailbox::detail
