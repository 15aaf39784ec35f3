#include "flow.hpp"

namespace courier::mailbox::detail {

Flow::Flow(comm::Endpoint& endpoint, int rank, int ranks, std::size_t pause_bytes, std::size_t resume_bytes)
    : rank_(rank),
      ranks_(ranks),
      pause_bytes_(pause_bytes),
      resume_bytes_(resume_bytes),
      heard_(static_cast<std::size_t>(ranks)),
      paused_by_(static_cast<std::size_t>(ranks)),
      outbox_(endpoint) {}

void Flow::ask(bool pause) {
  pausing_ = pause;
  if (pause) ++pauses_;
  const Message m{++sent_, pause ? 1u : 0u};
  for (int r = 0; r < ranks_; ++r) {
    if (r != rank_) outbox_.post(r, flow_tag, m);
  }
}

void Flow::on_message(const comm::Completion& c) {
  const auto m = read_control<Message>(c, "flow-control");
  const auto r = static_cast<std::size_t>(c.rank);
  if (m.sequence <= heard_[r]) return;  // overtaken by a later one
  heard_[r] = m.sequence;
  const auto now = static_cast<std::uint8_t>(m.pause != 0);
  pausers_ += static_cast<int>(now) - static_cast<int>(paused_by_[r]);
  paused_by_[r] = now;
}

}  // namespace courier::mailbox::detail
