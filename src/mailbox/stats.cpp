#include "courier/mailbox/stats.hpp"

#include <algorithm>
#include <cstdio>

namespace courier::mailbox {

Stats& Stats::operator+=(const Stats& o) {
  messages_local += o.messages_local;
  messages_remote += o.messages_remote;
  messages_self += o.messages_self;
  bytes_local += o.bytes_local;
  bytes_remote += o.bytes_remote;
  batches_local += o.batches_local;
  batches_remote += o.batches_remote;
  messages_forwarded += o.messages_forwarded;
  messages_delivered += o.messages_delivered;
  exchanges += o.exchanges;
  send_retries += o.send_retries;
  termination_waves += o.termination_waves;
  pauses += o.pauses;
  peak_buffered_bytes = std::max(peak_buffered_bytes, o.peak_buffered_bytes);
  peak_in_flight_bytes = std::max(peak_in_flight_bytes, o.peak_in_flight_bytes);
  peak_backlog_bytes = std::max(peak_backlog_bytes, o.peak_backlog_bytes);
  return *this;
}

std::string format(const Stats& s) {
  std::string out;
  const auto line = [&out](const char* name, std::uint64_t value) {
    out += name;
    out += ' ';
    out += std::to_string(value);
    out += '\n';
  };
  line("messages_local", s.messages_local);
  line("messages_remote", s.messages_remote);
  line("messages_self", s.messages_self);
  line("bytes_local", s.bytes_local);
  line("bytes_remote", s.bytes_remote);
  line("batches_local", s.batches_local);
  line("batches_remote", s.batches_remote);
  line("messages_forwarded", s.messages_forwarded);
  line("messages_delivered", s.messages_delivered);
  line("exchanges", s.exchanges);
  line("send_retries", s.send_retries);
  line("termination_waves", s.termination_waves);
  line("pauses", s.pauses);
  line("peak_buffered_bytes", s.peak_buffered_bytes);
  line("peak_in_flight_bytes", s.peak_in_flight_bytes);
  line("peak_backlog_bytes", s.peak_backlog_bytes);
  char average[64];
  std::snprintf(average, sizeof average, "%.1f", s.average_remote_batch_bytes());
  out += "average_remote_batch_bytes ";
  out += average;
  out += '\n';
  return out;
}

}  // namespace courier::mailbox
