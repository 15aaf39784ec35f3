#include "courier/mailbox/config.hpp"

namespace courier::mailbox {

std::string describe(const Config& config, const Topology& topology) {
  std::string out = "mailbox: capacity " + std::to_string(config.capacity_bytes) + " B, routing " +
                    to_string(config.routing) + ", " + topology.describe();
  if (config.threads > 1) out += ", " + std::to_string(config.threads) + " threads per rank";
  out += config.layout ? ", simulated layout " + to_string(*config.layout) : std::string(", nodes from the transport");
  return out;
}

}  // namespace courier::mailbox
