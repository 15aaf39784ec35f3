#pragma once
// Flow: back pressure between the mailboxes of a job (see Config::pause_backlog_bytes). comm
// takes in every batch it is given, so a rank that handles less than it is sent -- an
// intermediary of nl / nr / nlnr above all -- learns of it only from its own backlog. Past the
// mark it asks every rank to pause, and once its backlog is down to half it tells them to resume.
// Every rank, not only those whose batches it holds: under routing most of what reaches a busy
// intermediary was sent by ranks further away, through ranks that only pass it on. A paused rank
// keeps handling and forwarding and only holds back messages of its own, so what is already on
// its way drains, no rank ever waits for another to send first, and pauses cannot deadlock:
// whether a rank is paused depends only on the backlogs of the ranks that asked.
//
// Each message carries the asking rank's count of messages sent, so a pause and a resume that
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
  Flow(comm::Endpoint& endpoint, int rank, int ranks, std::size_t pause_bytes, std::size_t resume_bytes);

  static bool is_flow(comm::tag_t tag) { return tag == flow_tag; }

  // A batch was taken in and `backlog` bytes wait now.
  void on_taken(std::size_t backlog) {
    if (!pausing_ && backlog > pause_bytes_) ask(true);
  }
  // A batch was handled and `backlog` bytes wait now.
  void on_drained(std::size_t backlog) {
    if (pausing_ && backlog <= resume_bytes_) ask(false);
  }
  // Whether this rank's own backlog keeps it from sending messages of its own.
  bool backlogged(std::size_t backlog) const { return backlog > resume_bytes_; }
  // A pause or resume arrived (the caller releases it).
  void on_message(const comm::Completion& message);
  // Some rank asked this one to pause and has not yet told it to resume.
  bool paused() const { return pausers_ > 0; }
  // Sends what the transport refused earlier; false while some still waits.
  bool flush() { return outbox_.flush(); }
  // Times this rank asked the others to pause.
  std::uint64_t pauses() const { return pauses_; }

 private:
  static constexpr comm::tag_t flow_tag = 6;  // data batches use 1 and 5, termination 2 to 4
  struct Message {
    std::uint64_t sequence = 0;  // the sender's messages so far, this one included
    std::uint64_t pause = 0;     // 1: pause, 0: resume
  };

  void ask(bool pause);  // every other rank

  int rank_, ranks_;
  std::size_t pause_bytes_, resume_bytes_;
  bool pausing_ = false;                 // this rank asked the others to pause, no resume yet
  std::uint64_t sent_ = 0;               // messages this rank sent
  std::vector<std::uint64_t> heard_;     // [rank]: the last sequence number heard from it
  std::vector<std::uint8_t> paused_by_;  // [rank]: it asked this rank to pause, no resume yet
  int pausers_ = 0;
  std::uint64_t pauses_ = 0;
  Outbox outbox_;
};

}  // namespace courier::mailbox::detail
