#include "courier/comm/stats.hpp"

#include <fmt/format.h>

namespace courier::comm {

std::string to_string(const Stats& s) {
  return fmt::format(
      "sent: messages {} (eager {}, rendezvous {}), bytes {}, puts {}, gets {}, retries {}\n"
      "received: messages {}, bytes {}\n"
      "transport: packets sent {} received {}, frames sent {} received {}, frame bytes sent {}, "
      "device retries {}\n"
      "shutdown: discarded {}, dropped {}, freed undelivered {}\n"
      "pool: packets {}, high water {}",
      s.messages_sent, s.eager_sent, s.rendezvous_sent, s.bytes_sent, s.puts, s.gets, s.retries,
      s.messages_received, s.bytes_received, s.packets_sent, s.packets_received, s.frames_sent,
      s.frames_received, s.frame_bytes_sent, s.device_retries, s.discarded, s.dropped, s.freed_undelivered,
      s.pool_packets, s.pool_high_water);
}

}  // namespace courier::comm
