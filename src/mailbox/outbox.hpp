#pragma once
// Outbox: the mailbox's small control messages (termination, back pressure) in posting order. The
// transport may refuse a send for now (comm::Post::retry); what it refused waits here and goes
// first at the next flush, so control messages are never lost and never overtake each other.
// read_control reads one back on arrival.
#include <cstddef>
#include <cstring>
#include <deque>
#include <span>
#include <string>

#include "courier/comm/completion.hpp"
#include "courier/comm/endpoint.hpp"
#include "courier/core/error.hpp"

namespace courier::mailbox::detail {

class Outbox {
 public:
  static constexpr std::size_t max_bytes = 48;  // small enough to go eager: the transport copies it

  explicit Outbox(comm::Endpoint& endpoint) : endpoint_(endpoint) {}

  // Queues a message (at most max_bytes) and tries to send everything queued.
  template <class Message>
  void post(int dest, comm::tag_t tag, const Message& message) {
    static_assert(sizeof(Message) <= max_bytes);
    Outgoing o{dest, tag, sizeof message, {}};
    std::memcpy(o.bytes, &message, sizeof message);
    queue_.push_back(o);
    flush();
  }
  // Sends what waits; false while the transport still refuses some.
  bool flush() {
    while (!queue_.empty()) {
      const Outgoing& o = queue_.front();
      if (endpoint_.send(o.dest, o.tag, std::span(o.bytes, o.size)) == comm::Post::retry) return false;
      queue_.pop_front();
    }
    return true;
  }

 private:
  struct Outgoing {
    int dest;
    comm::tag_t tag;
    std::size_t size;
    std::byte bytes[max_bytes];
  };
  comm::Endpoint& endpoint_;
  std::deque<Outgoing> queue_;
};

// The control message `c` carries; `what` names its kind for the error when its size is wrong.
template <class Message>
Message read_control(const comm::Completion& c, const char* what) {
  Message m;
  if (c.size != sizeof m) {
    throw Error(std::string("mailbox: a ") + what + " message of " + std::to_string(c.size) +
                " bytes arrived from rank " + std::to_string(c.rank) + " (expected " + std::to_string(sizeof m) +
                "); every rank must run the same program and build mailboxes in the same order");
  }
  std::memcpy(&m, c.data, sizeof m);
  return m;
}

}  // namespace courier::mailbox::detail
