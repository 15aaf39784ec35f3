#pragma once
// Flow: back pressure between the mailboxes of a job (see Config::pause_backlog_bytes). The
// transport takes every batch it is given, so a rank that handles more than it can keep up with
// -- an intermediary of nl / nr / nlnr routing most of all -- learns of it only from its own
// set-aside backlog, and says so to the senders: "pause" to each rank whose batch it sets aside
// past the high mark, "resume" to all of them once the backlog is down to the low mark. Paused
// ranks keep handling and forwarding, so no rank ever waits for another to send first and the
// pauses cannot deadlock; they only hold back messages of their own.
//
// Each message carries a number that grows per pair of ranks, so a pause and a resume that
// arrive out of order leave the later one in force.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "courier/comm/completion.hpp"
#include "courier/comm/endpoint.hpp"
#include "outbox.hpp"

namespace courier::mailbox::detail {

class Flow {
 public:
  Flow(comm::Endpoint& endpoint, int ranks, std::size_t pause_bytes, std::size_t resume_bytes);

  static bool is_flow(comm::tag_t tag) { return tag == flow_tag; }

  // A batch from `source` was set aside and `backlog` bytes wait now.
  void on_set_aside(int source, std::size_t backlog) {
    if (backlog > pause_bytes_ && !pausing_[static_cast<std::size_t>(source)]) pause(source);
  }
  // A set-aside batch was handled and `backlog` bytes wait now.
  void on_drained(std::size_t backlog) {
    if (!pausing_list_.empty() && backlog <= resume_bytes_) resume_all();
  }
  // Whether this rank's own backlog keeps it from sending messages of its own.
  bool backlogged(std::size_t backlog) const { return backlog > resume_bytes_; }
  // A pause or resume arrived (the caller releases it).
  void on_message(const comm::Completion& message);
  // Some rank asked this one to pause and has not yet told it to resume.
  bool paused() const { return pausers_ > 0; }
  // Sends what the transport refused earlier; false while some still waits.
  bool flush() { return outbox_.flush(); }
  // Pause requests this rank sent.
  std::uint64_t pauses() const { return pauses_; }

 private:
  static constexpr comm::tag_t flow_tag = 6;  // data batches use 1 and 5, termination 2 to 4
  struct Message {
    std::uint64_t sequence = 0;  // grows per (sender, receiver) pair
    std::uint64_t pause = 0;     // 1: pause, 0: resume
  };

  void pause(int rank);
  void resume_all();

  std::size_t pause_bytes_, resume_bytes_;
  std::vector<std::uint8_t> pausing_;    // [rank]: this rank asked it to pause, no resume yet
  std::vector<int> pausing_list_;        // the same ranks, listed
  std::vector<std::uint64_t> sent_;      // [rank]: the last sequence number sent to it
  std::vector<std::uint64_t> heard_;     // [rank]: the last sequence number heard from it
  std::vector<std::uint8_t> paused_by_;  // [rank]: it asked this rank to pause, no resume yet
  int pausers_ = 0;
  std::uint64_t pauses_ = 0;
  Outbox outbox_;
};

}  // namespace courier::mailbox::detail
