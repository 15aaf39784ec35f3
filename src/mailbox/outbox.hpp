#pragma once
// Outbox: the mailbox's small control messages (termination, back pressure) in posting order. The
// transport may refuse a send for now (comm::Post::retry); what it refused waits here and goes
// first at the next flush, so control messages are never lost and never overtake each other.
#include <cstddef>
#include <cstring>
#include <deque>
#include <span>

#include "courier/comm/endpoint.hpp"

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

}  // namespace courier::mailbox::detail
